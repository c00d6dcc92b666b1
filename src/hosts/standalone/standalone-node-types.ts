import type { DirectoryLoader } from 'n8n-core';
import {
	NodeHelpers,
	type ICredentialType,
	type IDataObject,
	type INodeType,
	type INodeTypes,
	type IVersionedNodeType,
} from 'n8n-workflow';
import { NodeTypeNotFoundError } from '../../errors/node-type-not-found-error';
import { deriveToolNodeType } from './derive-tool-node-type';

/** Splits `@scope/pkg.nodeName` at the last dot into package and node name. */
function splitNodeType(fullType: string): { packageName: string; name: string } {
	const dot = fullType.lastIndexOf('.');
	return dot === -1
		? { packageName: '', name: fullType }
		: { packageName: fullType.slice(0, dot), name: fullType.slice(dot + 1) };
}

/** What {@link StandaloneNodeTypes.locate} found for a node type. */
export interface NodeTypeLocation {
	/** The package part of the type name (`@n8n/n8n-nodes-langchain`). */
	packageName: string;
	found: 'held' | 'known' | 'derived-tool' | 'package-missing' | 'type-missing';
}

/**
 * The node-type registry n8n-core's `Workflow` needs, over n8n-core package loaders (the n8n
 * CLI has the full one). Classes load on demand. A `…Tool` type that its package does not
 * define itself is derived from the plain type when that type is `usableAsTool`
 * (n8n-nodes-base has no `cryptoTool` class; the n8n CLI derives it at load time).
 */
export class StandaloneNodeTypes implements INodeTypes {
	private readonly derivedTools = new Map<string, INodeType>();
	private readonly inHand = new Map<string, INodeType | IVersionedNodeType>();

	/**
	 * @param loaders the installed packages' loaders, by package name
	 * @param nodeTypes node classes the caller holds, by full type name, as factories called
	 *   on first use; they win over the installed packages (a host passes its own nodes here)
	 */
	constructor(
		private readonly loaders: Map<string, DirectoryLoader>,
		private readonly nodeTypes: Readonly<Record<string, () => INodeType | IVersionedNodeType>> = {},
	) {}

	/** The installed package names, in load order. */
	get packageNames(): string[] {
		return [...this.loaders.keys()];
	}

	/**
	 * Where a node type would come from, without loading its class: held by the caller, known
	 * to an installed package (itself or, for a `…Tool` type, its plain variant), or not
	 * available because its package is not installed or does not have it.
	 */
	locate(nodeType: string): NodeTypeLocation {
		const { packageName, name } = splitNodeType(nodeType);
		if (Object.hasOwn(this.nodeTypes, nodeType)) return { packageName, found: 'held' };
		const loader = this.loaders.get(packageName);
		if (!loader) return { packageName, found: 'package-missing' };
		if (this.isKnown(loader, name)) return { packageName, found: 'known' };
		if (name.endsWith('Tool') && this.isKnown(loader, name.slice(0, -'Tool'.length)))
			return { packageName, found: 'derived-tool' };
		return { packageName, found: 'type-missing' };
	}

	/** The version of an installed node package, from its package.json. */
	packageVersion(packageName: string): string | undefined {
		const loader = this.loaders.get(packageName) as { packageJson?: { version?: unknown } };
		const version = loader?.packageJson?.version;
		return typeof version === 'string' ? version : undefined;
	}

	/** The folder of an installed node package. */
	packageDirectory(packageName: string): string | undefined {
		return this.loaders.get(packageName)?.directory;
	}

	/** @throws NodeTypeNotFoundError when neither the type nor its plain variant is installed. */
	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const held = this.held(nodeType);
		if (held) return held;
		const { packageName, name } = splitNodeType(nodeType);
		const loader = this.loaders.get(packageName);
		if (!loader) {
			throw new NodeTypeNotFoundError(
				nodeType,
				`Node type "${nodeType}" is not available: package "${packageName}" is not installed. Installed node packages: ${this.packageNames.join(', ') || 'none'}.`,
			);
		}
		if (this.isKnown(loader, name)) return loader.getNode(name).type;
		if (name.endsWith('Tool') && this.isKnown(loader, name.slice(0, -'Tool'.length))) {
			return loader.getNode(name.slice(0, -'Tool'.length)).type;
		}
		throw new NodeTypeNotFoundError(
			nodeType,
			`Node type "${nodeType}" is not in package "${packageName}".`,
		);
	}

	/**
	 * @throws NodeTypeNotFoundError when the type is missing, or a `…Tool` type is asked of a
	 *   node that is not `usableAsTool`.
	 */
	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		const { packageName, name } = splitNodeType(nodeType);
		const loader = this.loaders.get(packageName);
		const isDerivedTool =
			loader !== undefined &&
			!this.isKnown(loader, name) &&
			name.endsWith('Tool') &&
			!Object.hasOwn(this.nodeTypes, nodeType);
		const plain = NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
		if (!isDerivedTool) return plain;
		const cacheKey = `${nodeType}@${version ?? 'latest'}`;
		const cached = this.derivedTools.get(cacheKey);
		if (cached) return cached;
		if (!plain.description.usableAsTool) {
			throw new NodeTypeNotFoundError(
				nodeType,
				`Node type "${nodeType}" does not exist: "${packageName}.${name.slice(0, -'Tool'.length)}" is not usable as a tool (no usableAsTool).`,
			);
		}
		const tool = deriveToolNodeType(plain);
		this.derivedTools.set(cacheKey, tool);
		return tool;
	}

	/** The known node classes of every loaded package, by full type name. */
	getKnownTypes(): IDataObject {
		const known: IDataObject = {};
		for (const [packageName, loader] of this.loaders) {
			for (const [name, details] of Object.entries(loader.known.nodes))
				known[`${packageName}.${name}`] = details;
		}
		return known;
	}

	/**
	 * A credential type by name, from whichever package declares it.
	 * @throws Error when no loaded package knows the credential type.
	 */
	getCredentialType(credentialType: string): ICredentialType {
		for (const loader of this.loaders.values()) {
			if (
				Object.hasOwn(loader.known.credentials, credentialType) ||
				Object.hasOwn(loader.credentialTypes, credentialType)
			) {
				return loader.getCredential(credentialType).type;
			}
		}
		throw new NodeTypeNotFoundError(
			credentialType,
			`Credential type "${credentialType}" is not defined by any installed node package.`,
		);
	}

	private held(nodeType: string): INodeType | IVersionedNodeType | undefined {
		if (!Object.hasOwn(this.nodeTypes, nodeType)) return undefined;
		let type = this.inHand.get(nodeType);
		if (!type) {
			type = this.nodeTypes[nodeType]();
			this.inHand.set(nodeType, type);
		}
		return type;
	}

	private isKnown(loader: DirectoryLoader, name: string): boolean {
		// Own keys: a type named `n8n-nodes-base.toString` is unknown, not Object.prototype's member.
		return Object.hasOwn(loader.known.nodes, name) || Object.hasOwn(loader.nodeTypes, name);
	}
}
