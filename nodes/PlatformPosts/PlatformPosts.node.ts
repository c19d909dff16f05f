import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	authenticationProperty,
	bearerCredentialFields,
	credentialsFor,
} from '../shared/descriptions';
import {
	operationProperties,
	operationSubtitle,
	resourceProperty,
	routeExecution,
} from '../shared/router';
import type { CredentialKind } from '../shared/transport';
import { admin } from './resources/admin';
import { community } from './resources/community';
import { compliance } from './resources/compliance';
import { space } from './resources/space';
import { trend } from './resources/trend';
import { usage } from './resources/usage';
import { chat } from './resources/chat';
import { communityNote } from './resources/communityNote';
import { directMessage } from './resources/directMessage';
import { engagement } from './resources/engagement';
import { media } from './resources/media';
import { news } from './resources/news';
import { post } from './resources/post';
import { token } from './resources/token';
import { revokeBearerNeedsBearerCredential } from './resources/token/revokeBearerToken';
import { user } from './resources/user';
import { list } from './resources/list';
import { searchOwnedLists } from '../shared/listSearch';

/**
 * The Authentication field's kinds. App-Only Bearer first: n8n's editor sets Authentication to the
 * first option the chosen credential's entry allows, and the bearer entry allows every option (see
 * credentialsFor).
 */
const AUTHENTICATION: CredentialKind[] = ['appOnly', 'pkce', 'hmac', 'connect'];

const resources = {
	post,
	user,
	list,
	news,
	engagement,
	directMessage,
	chat,
	communityNote,
	media,
	space,
	trend,
	community,
	usage,
	compliance,
	admin,
	token,
};

export class PlatformPosts implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Platform Posts',
		name: 'platformPosts',
		icon: { light: 'file:../../icons/platform.svg', dark: 'file:../../icons/platform.dark.svg' },
		// Opened as is by the editor's Docs link; the codex links get ?utm… appended, which would break an anchor.
		documentationUrl:
			'https://github.com/n8n-nodes-platform/n8n-nodes-platform/blob/main/docs/nodes/platform-posts.md#platform-posts',
		group: ['output'],
		// 1.1: Token > Revoke App Bearer Token revokes the token of the App-Only Bearer credential
		// (version 1 takes the token as a field, so it is stored in the workflow).
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: operationSubtitle(resources),
		description: 'Create, edit, delete, look up, search and count posts; users; news',
		defaults: { name: 'Platform Posts' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: credentialsFor(['pkce', 'hmac', 'connect', 'appOnly'], { bearerOnField: true }),
		properties: [
			authenticationProperty(AUTHENTICATION, 'pkce'),
			...bearerCredentialFields(revokeBearerNeedsBearerCredential),
			resourceProperty(resources, 'post'),
			...operationProperties(resources, AUTHENTICATION),
		],
	};

	methods = { listSearch: { searchOwnedLists } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await routeExecution.call(this, resources, 'platform');
	}
}
