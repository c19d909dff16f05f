import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import { userLocator, userRefParameter } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { listOf, unwrapData } from '../../../shared/transport';
import { authenticatedUserId, resolveUserId } from '../../users';
import { choices, requiredText } from './common';

const PUBLIC_KEY_FIELDS = ['juicebox_config', 'public_key', 'signing_public_key', 'version'];

export const getPublicKeys: ItemOperation = {
	option: {
		name: 'Get Public Keys',
		value: 'getPublicKeys',
		description:
			"Get a user's chat public keys (what a chat client encrypts messages to that user with). Needs a user-context credential (OAuth2 scopes dm.read, tweet.read, users.read).",
		action: "Get a user's chat public keys",
	},
	properties: [
		{
			...userLocator('keyUser'),
			description: 'Whose public keys to get, by username, ID or profile URL',
		},
		{
			displayName: 'Key Fields',
			name: 'publicKeyFields',
			type: 'multiOptions',
			default: [],
			options: choices(PUBLIC_KEY_FIELDS),
			description: 'Fields of each key to return (public_key.fields)',
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const userId = await resolveUserId.call(
			ctx,
			itemIndex,
			userRefParameter(ctx, 'keyUser', itemIndex),
		);
		const fields = (ctx.getNodeParameter('publicKeyFields', itemIndex, []) as string[]) ?? [];
		const body = await ctx.request({
			method: 'GET',
			path: `/2/users/${userId}/public_keys`,
			qs: fields.length ? { 'public_key.fields': fields.join(',') } : undefined,
		});
		return listOf(body).map((key) => ({ user_id: userId, ...key }));
	},
};

export const addPublicKey: ItemOperation = {
	option: {
		name: 'Add Public Key',
		value: 'addPublicKey',
		description:
			"Register a public key of the authenticated user for chat encryption, as a chat client library produced it. Answers the key store's recovery configuration. Needs a user-context credential (OAuth2 scopes dm.write, tweet.read, users.read).",
		action: 'Add a chat public key',
	},
	properties: [
		{
			displayName: 'Version',
			name: 'keyVersion',
			type: 'string',
			default: '',
			required: true,
			description: 'The version of the key, as the chat client names it',
		},
		{
			displayName: 'Public Key',
			name: 'publicKey',
			type: 'string',
			default: '',
			required: true,
			description: 'The identity public key, base64-encoded',
		},
		{
			displayName: 'Additional Fields',
			name: 'publicKeyDetails',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Generate Version',
					name: 'generateVersion',
					type: 'boolean',
					default: false,
					description: 'Whether the service assigns the version',
				},
				{
					displayName: 'Identity Key Signature',
					name: 'identityPublicKeySignature',
					type: 'string',
					default: '',
					description: "The identity public key's signature, base64-encoded",
				},
				{
					displayName: 'Key Fingerprint',
					name: 'publicKeyFingerprint',
					type: 'string',
					default: '',
				},
				{
					displayName: 'Registration Method',
					name: 'registrationMethod',
					type: 'string',
					default: '',
					description: 'How the key was registered, as the chat client names it',
				},
				{
					displayName: 'Signing Key Signature',
					name: 'signingPublicKeySignature',
					type: 'string',
					default: '',
					description: "The signing public key's signature, base64-encoded",
				},
				{
					displayName: 'Signing Public Key',
					name: 'signingPublicKey',
					type: 'string',
					default: '',
					description: 'The signing public key, base64-encoded',
				},
			],
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const version = requiredText(ctx, itemIndex, 'keyVersion', 'Version');
		const publicKey = requiredText(ctx, itemIndex, 'publicKey', 'Public Key');
		const details = (ctx.getNodeParameter('publicKeyDetails', itemIndex, {}) ?? {}) as IDataObject;
		const key: IDataObject = { public_key: publicKey };
		const wire: Array<[string, string]> = [
			['identityPublicKeySignature', 'identity_public_key_signature'],
			['publicKeyFingerprint', 'public_key_fingerprint'],
			['registrationMethod', 'registration_method'],
			['signingPublicKey', 'signing_public_key'],
			['signingPublicKeySignature', 'signing_public_key_signature'],
		];
		for (const [name, field] of wire) {
			const value = String(details[name] ?? '').trim();
			if (value) key[field] = value;
		}
		const body: IDataObject = { version, public_key: key };
		if (details.generateVersion === true) body.generate_version = true;
		// The keys are registered for the user the credential acts as.
		const me = await authenticatedUserId.call(ctx, itemIndex);
		const response = await ctx.request({
			method: 'POST',
			path: `/2/users/${me}/public_keys`,
			body,
		});
		return { user_id: me, ...(unwrapData<IDataObject>(response) ?? {}) };
	},
};
