import { ToolbridgeError } from './toolbridge-error';

/** A node references a credential the host was not given. The message never contains secret values. */
export class MissingCredentialError extends ToolbridgeError {
	/** The credential type, e.g. `httpHeaderAuth`. */
	readonly credentialType: string;
	/** The credential's name as the workflow references it. */
	readonly credentialName: string;
	/** The node that needs it. */
	readonly nodeName: string;

	constructor(options: {
		credentialType: string;
		credentialName: string;
		nodeName: string;
		message: string;
	}) {
		super('CREDENTIAL_MISSING', options.message);
		this.name = 'MissingCredentialError';
		this.credentialType = options.credentialType;
		this.credentialName = options.credentialName;
		this.nodeName = options.nodeName;
	}
}
