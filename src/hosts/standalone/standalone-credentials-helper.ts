import {
	ICredentialsHelper,
	NodeHelpers,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type ICredentialType,
	type IDataObject,
	type IHttpRequestHelper,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeProperties,
	type IRequestOptionsSimplified,
	type IWorkflowExecuteAdditionalData,
	type IExecuteData,
	type Workflow,
	type WorkflowExecuteMode,
} from 'n8n-workflow';
import { MissingCredentialError } from '../../errors/missing-credential-error';
import type { CredentialRecords } from './credential-store';
import { describeMissingCredential } from './describe-missing-credential';
import { n8nCoreRuntime } from './n8n-core-runtime';

/** Looks up credential types by name (the host's node-type registry does). */
export interface CredentialTypeSource {
	getCredentialType(credentialType: string): ICredentialType;
}

/**
 * n8n's credentials helper for the standalone host: credential data comes in plain from
 * {@link CredentialRecords} (by credential name, then by credential type), defaults of the
 * credential type are applied, and generic or function `authenticate` of the credential type
 * signs requests as in the n8n server. Nothing is encrypted at rest and nothing is persisted:
 * token updates stay in memory for the life of the host.
 */
export class StandaloneCredentialsHelper extends ICredentialsHelper {
	/**
	 * @param onUpdate told each credential n8n-core writes back during a run (an OAuth2 token
	 *   it fetched or refreshed), so the host's redactor learns the new secrets.
	 */
	constructor(
		private readonly records: CredentialRecords,
		private readonly credentialTypes: CredentialTypeSource,
		private readonly onUpdate?: (type: string, data: ICredentialDataDecryptedObject) => void,
	) {
		super();
	}

	/** Finds the data for a node's credential reference, or undefined. */
	find(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): ICredentialDataDecryptedObject | undefined {
		if (nodeCredentials.name && Object.hasOwn(this.records, nodeCredentials.name))
			return this.records[nodeCredentials.name];
		if (Object.hasOwn(this.records, type)) return this.records[type];
		return undefined;
	}

	/** The chain of types this credential type extends (`oAuth2Api`, …). */
	getParentTypes(name: string): string[] {
		const parents: string[] = [];
		let current = this.credentialTypes.getCredentialType(name).extends ?? [];
		while (current.length > 0) {
			parents.push(...current);
			current = current.flatMap(
				(parent) => this.credentialTypes.getCredentialType(parent).extends ?? [],
			);
		}
		return parents;
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	/** Applies the credential type's `authenticate` (function or generic) to the request. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions as IHttpRequestOptions &
			Record<string, IDataObject | undefined>;
		const { authenticate } = this.credentialTypes.getCredentialType(typeName);
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (authenticate?.type !== 'generic') return requestOptions;
		const resolve = (value: unknown): unknown => {
			if (typeof value !== 'string' || !value.startsWith('=') || !workflow || !node) return value;
			return workflow.expression.getSimpleParameterValue(
				node,
				value,
				'internal',
				{ $credentials: credentials },
				undefined,
				'',
			);
		};
		for (const [outerKey, entries] of Object.entries(authenticate.properties)) {
			const target = (requestOptions[outerKey] ??= {}) as IDataObject;
			for (const [key, value] of Object.entries(entries as IDataObject)) {
				target[String(resolve(key))] = resolve(value) as IDataObject[string];
			}
		}
		return requestOptions;
	}

	/** Refreshes an expirable field (session token) through the type's `preAuthentication`. */
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		_node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getCredentialType(typeName);
		const expirable = credentialType.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable,
		);
		if (!credentialType.preAuthentication || !expirable) return undefined;
		if (
			!credentialsExpired &&
			credentials[expirable.name] !== '' &&
			credentials[expirable.name] !== undefined
		)
			return undefined;
		const output = await credentialType.preAuthentication.call(helpers, credentials);
		return { ...credentials, ...output } as ICredentialDataDecryptedObject;
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getCredentialType(typeName);
		if (!credentialType.preAuthentication) return undefined;
		return {
			...credentials,
			...(await credentialType.preAuthentication.call(helpers, credentials)),
		} as ICredentialDataDecryptedObject;
	}

	/** @throws MissingCredentialError when no record matches. */
	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentials> {
		const credentials = new (n8nCoreRuntime().Credentials)(
			{ id: nodeCredentials.id, name: nodeCredentials.name },
			type,
		);
		await credentials.setData(this.require(nodeCredentials, type));
		return credentials;
	}

	/**
	 * The credential's plain data with the credential type's defaults applied.
	 * @throws MissingCredentialError when neither the credential's name nor its type was supplied.
	 */
	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		_mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.require(nodeCredentials, type, executeData?.node.name);
		const withDefaults = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			data as never,
			true,
			false,
			null,
			null,
		);
		return { ...(withDefaults as ICredentialDataDecryptedObject), ...data };
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.records[nodeCredentials.name ?? type] = data;
		this.onUpdate?.(type, data);
	}

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const current = this.find(nodeCredentials, type) ?? {};
		const updated = { ...current, ...data };
		this.records[nodeCredentials.name ?? type] = updated;
		this.onUpdate?.(type, updated);
	}

	/** Properties of the credential type and of every type it extends. */
	getCredentialsProperties(type: string): INodeProperties[] {
		const own = this.credentialTypes.getCredentialType(type).properties;
		const inherited = this.getParentTypes(type).flatMap(
			(parent) => this.credentialTypes.getCredentialType(parent).properties,
		);
		const names = new Set(own.map((property) => property.name));
		return [...own, ...inherited.filter((property) => !names.has(property.name))];
	}

	private require(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		nodeName?: string,
	): ICredentialDataDecryptedObject {
		const data = this.find(nodeCredentials, type);
		if (data) return data;
		throw new MissingCredentialError({
			credentialType: type,
			credentialName: nodeCredentials.name ?? '',
			nodeName: nodeName ?? '',
			message: describeMissingCredential(type, nodeCredentials.name, nodeName),
		});
	}
}
