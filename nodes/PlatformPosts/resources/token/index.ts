import type { Resource } from '../../../shared/router';
import { revokeBearerToken } from './revokeBearerToken';
import { revokeOAuth1Token } from './revokeOAuth1Token';
import { revokeOAuth2Token } from './revokeOAuth2Token';

export const token: Resource = {
	option: { name: 'Token', value: 'token' },
	defaultOperation: 'revokeOAuth2Token',
	operations: { revokeOAuth1Token, revokeBearerToken, revokeOAuth2Token },
};
