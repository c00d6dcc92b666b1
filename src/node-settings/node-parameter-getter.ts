/**
 * Reads one node parameter, with its default: `getNodeParameter` for an item inside n8n, the
 * workflow-JSON parameter reader in the standalone host. Every reader of this layer reads a
 * node through it, so both hosts read the same parameters the same way and cannot drift apart.
 */
export type NodeParameterGetter = (name: string, fallback: unknown) => unknown;

/**
 * Reads the credential of `type` the node references: n8n's `getCredentials` inside n8n, the
 * resolved credential fields (overrides, supplied records, environment) in the standalone host.
 *
 * @throws what the host's credential lookup throws (inside n8n: "does not have any credentials set").
 */
export type CredentialGetter = (type: string) => Promise<Record<string, unknown>>;
