import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
	NodeVersionNotFoundError,
	type INodeType,
	type INodeTypeDescription,
	type INodeTypes,
	type IVersionedNodeType,
} from 'n8n-workflow';
import { toolVariantDescription, type StandaloneHost } from 'n8n-nodes-toolbridge';
import {
	findLangChainPackage,
	LANGCHAIN_PACKAGE,
	type FindLangChainPackageOptions,
	type LangChainPackage,
} from './langchain-package';
import { NodeDescriptionsError } from './node-descriptions-error';

const NODES_BASE = 'n8n-nodes-base';

/** One node type the builder knows, with every version its package describes. */
export interface CatalogNodeType {
	/** Full type name, e.g. `n8n-nodes-base.slack`. */
	type: string;
	packageName: string;
	/** One description per versioned class (a description may cover several versions). */
	descriptions: INodeTypeDescription[];
	/** Every version, ascending. */
	versions: number[];
	/** The version n8n's editor adds (its `defaultVersion`, else the highest). */
	defaultVersion: number;
	/** True when the standalone host can load its class (its package is installed). */
	loadable: boolean;
	/** A `…Tool` variant derived from a `usableAsTool` node. */
	toolVariantOf?: string;
}

/** A package the catalog read. */
export interface CatalogPackage {
	name: string;
	/** `installed` packages load in the host; `cache` / `fetched` are descriptions only. */
	source: 'installed' | 'cache' | 'fetched';
	version?: string;
	nodeTypes: number;
}

/** Options of {@link NodeCatalog.load}. */
export interface NodeCatalogOptions {
	/** The standalone host whose packages (community ones via `--package`, this project's own) are described too. */
	host: StandaloneHost;
	/** Where LangChain's descriptions come from when it is not installed (see `findLangChainPackage`). */
	langChain?: FindLangChainPackageOptions;
}

/**
 * The node descriptions the builder searches, documents and validates against: n8n-nodes-base
 * (its generated `dist/types/nodes.json`), n8n's LangChain nodes (installed, or the descriptions
 * of its tarball, see `findLangChainPackage`) and every other package the standalone host has
 * (community packages given with `--package`, this project's own nodes), read from their
 * classes. `…Tool` variants of `usableAsTool` nodes are derived on demand, as n8n does.
 */
export class NodeCatalog {
	private readonly byType = new Map<string, CatalogNodeType>();
	private readonly derived = new Map<string, CatalogNodeType | null>();

	private constructor(
		types: CatalogNodeType[],
		/** Folders of generated `node-definitions` (zod schemas for the SDK's parameter checks). */
		readonly definitionDirs: string[],
		readonly packages: CatalogPackage[],
		readonly langChain: LangChainPackage,
	) {
		for (const entry of types) this.byType.set(entry.type, entry);
	}

	/**
	 * Reads every package's descriptions (about 0.5 s; n8n-nodes-base's 8 MB index is most of it).
	 * @throws {NodeDescriptionsError} when LangChain's descriptions cannot be found or fetched, or a
	 *   package's description index is not valid JSON.
	 */
	static async load(options: NodeCatalogOptions): Promise<NodeCatalog> {
		const langChain = await findLangChainPackage(options.langChain);
		const baseDir = dirname(require.resolve('n8n-nodes-base/package.json'));
		const types: CatalogNodeType[] = [];
		const packages: CatalogPackage[] = [];
		const definitionDirs: string[] = [];
		for (const [name, dir, source, version] of [
			[NODES_BASE, baseDir, 'installed', readVersion(baseDir)],
			[LANGCHAIN_PACKAGE, langChain.dir, langChain.source, langChain.version],
		] as const) {
			const descriptions = readDescriptionIndex(join(dir, 'dist/types/nodes.json'), name);
			const found = groupByType(descriptions, name, source === 'installed');
			types.push(...found);
			packages.push({ name, source, version, nodeTypes: found.length });
			const definitions = join(dir, 'dist/node-definitions');
			if (existsSync(definitions)) definitionDirs.push(definitions);
		}
		const fromClasses = hostPackageTypes(options.host, new Set([NODES_BASE, LANGCHAIN_PACKAGE]));
		for (const [name, found] of fromClasses) {
			types.push(...found);
			packages.push({ name, source: 'installed', nodeTypes: found.length });
		}
		return new NodeCatalog(types, definitionDirs, packages, langChain);
	}

	/** Every node type of the packages read (without derived `…Tool` variants). */
	get nodeTypes(): CatalogNodeType[] {
		return [...this.byType.values()];
	}

	/** A node type by full name, deriving `…Tool` variants of `usableAsTool` nodes; undefined when unknown. */
	find(type: string): CatalogNodeType | undefined {
		const own = this.byType.get(type);
		if (own) return own;
		if (!type.endsWith('Tool')) return undefined;
		if (!this.derived.has(type)) this.derived.set(type, this.deriveTool(type));
		return this.derived.get(type) ?? undefined;
	}

	/**
	 * The description of a node type at a version (default: its default version).
	 * @returns undefined when the type is unknown.
	 * @throws NodeVersionNotFoundError (n8n-workflow's) when the type exists but not that version.
	 */
	describe(type: string, version?: number): INodeTypeDescription | undefined {
		const entry = this.find(type);
		if (!entry) return undefined;
		const wanted = version ?? entry.defaultVersion;
		const found = entry.descriptions.find((description) =>
			versionsOf(description).includes(wanted),
		);
		if (!found) throw new NodeVersionNotFoundError(type, wanted, entry.versions);
		return found;
	}

	/**
	 * The catalog as n8n's `INodeTypes`, for the SDK's validation: description-only node types;
	 * an unknown type is `undefined` (the SDK lets only NodeVersionNotFoundError escape its checks).
	 */
	nodeTypesProvider(): INodeTypes {
		const asNodeType = (description: INodeTypeDescription | undefined) =>
			description ? ({ description } as INodeType) : (undefined as unknown as INodeType);
		return {
			getByName: (type) => asNodeType(this.describe(type)),
			getByNameAndVersion: (type, version) => asNodeType(this.describe(type, version)),
			getKnownTypes: () => ({}),
		};
	}

	private deriveTool(type: string): CatalogNodeType | null {
		const base = this.byType.get(type.slice(0, -'Tool'.length));
		if (!base || !base.descriptions.some((description) => description.usableAsTool)) return null;
		return {
			...base,
			type,
			descriptions: base.descriptions.map((description) =>
				description.usableAsTool ? toolVariantDescription(description) : description,
			),
			versions: base.descriptions
				.filter((description) => description.usableAsTool)
				.flatMap(versionsOf)
				.sort((a, b) => a - b),
			toolVariantOf: base.type,
		};
	}
}

/** The versions a description covers. */
export function versionsOf(description: Pick<INodeTypeDescription, 'version'>): number[] {
	return Array.isArray(description.version) ? description.version : [description.version];
}

function readVersion(dir: string): string | undefined {
	try {
		return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string })
			.version;
	} catch {
		return undefined;
	}
}

function readDescriptionIndex(file: string, packageName: string): INodeTypeDescription[] {
	try {
		const list = JSON.parse(readFileSync(file, 'utf8')) as INodeTypeDescription[];
		// The index names nodes without their package: `slack`, not `n8n-nodes-base.slack`.
		return list.map((description) => ({
			...description,
			name: `${packageName}.${description.name}`,
		}));
	} catch (error) {
		throw new NodeDescriptionsError(
			`Cannot read the node descriptions of ${packageName} (${file}): ${(error as Error).message}`,
			{ cause: error },
		);
	}
}

function groupByType(
	descriptions: INodeTypeDescription[],
	packageName: string,
	loadable: boolean,
): CatalogNodeType[] {
	const groups = new Map<string, INodeTypeDescription[]>();
	for (const description of descriptions)
		groups.set(description.name, [...(groups.get(description.name) ?? []), description]);
	return [...groups].map(([type, list]) => catalogType(type, packageName, list, loadable));
}

function catalogType(
	type: string,
	packageName: string,
	descriptions: INodeTypeDescription[],
	loadable: boolean,
): CatalogNodeType {
	const versions = [...new Set(descriptions.flatMap(versionsOf))].sort((a, b) => a - b);
	const declared = descriptions.find((description) => description.defaultVersion !== undefined);
	const defaultVersion = declared?.defaultVersion ?? versions[versions.length - 1];
	return { type, packageName, descriptions, versions, defaultVersion, loadable };
}

/** Descriptions of the host's other packages, from their node classes (community packages ship no index). */
function hostPackageTypes(host: StandaloneHost, skip: Set<string>): Map<string, CatalogNodeType[]> {
	const byPackage = new Map<string, CatalogNodeType[]>();
	for (const type of Object.keys(host.nodeTypes.getKnownTypes())) {
		const packageName = type.slice(0, type.lastIndexOf('.'));
		if (skip.has(packageName)) continue;
		let nodeType: INodeType | IVersionedNodeType;
		try {
			nodeType = host.nodeTypes.getByName(type);
		} catch {
			continue; // a class that does not load is reported when a workflow uses it
		}
		const descriptions =
			'nodeVersions' in nodeType
				? Object.values(nodeType.nodeVersions).map((version) => version.description)
				: [nodeType.description];
		const entry = catalogType(
			type,
			packageName,
			descriptions.map((description) => ({ ...description, name: type })),
			true,
		);
		if ('nodeVersions' in nodeType && nodeType.description.defaultVersion !== undefined)
			entry.defaultVersion = nodeType.description.defaultVersion;
		byPackage.set(packageName, [...(byPackage.get(packageName) ?? []), entry]);
	}
	return byPackage;
}
