import type { IDataObject } from 'n8n-workflow';

import { OAUTH2_USER } from '../../../shared/authentication';
import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import { locatorValue } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { spaceIdFrom, spaceLocator, userFieldsOfUsersProperty } from './fields';

const BUYER_EXPANSIONS = ['affiliation.user_id', 'most_recent_tweet_id', 'pinned_tweet_id'];

export const getBuyers: ItemOperation = {
	option: {
		name: 'Get Ticket Buyers',
		value: 'getBuyers',
		description:
			'Get the users who bought a ticket to a ticketed Space (only its creator may read them)',
		action: 'Get ticket buyers of a space',
	},
	properties: [
		spaceLocator,
		returnAllProperty(),
		limitProperty(),
		userFieldsOfUsersProperty,
		{
			displayName: 'Expansions',
			name: 'buyerExpansions',
			type: 'multiOptions',
			default: [],
			description:
				'Related objects to return with each buyer: pinned_tweet_id adds the pinned post as "pinned_post", most_recent_tweet_id the latest post as "most_recent_post"',
			options: BUYER_EXPANSIONS.map((value) => ({ name: value, value })),
		},
	],
	authentication: OAUTH2_USER,
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = locatorValue(
			ctx.getNode(),
			ctx.getNodeParameter('spaceId', itemIndex),
			'Space',
			itemIndex,
			spaceIdFrom,
		);
		const qs: IDataObject = {};
		const fields = ctx.getNodeParameter('userFields', itemIndex, []) as string[];
		const expansions = ctx.getNodeParameter('buyerExpansions', itemIndex, []) as string[];
		if (fields.length) qs['user.fields'] = fields.join(',');
		if (expansions.length) qs.expansions = expansions.join(',');
		const posts = new Map<string, IDataObject>();
		const users = await ctx.paginate(
			{ method: 'GET', path: `/2/spaces/${id}/buyers`, qs },
			{
				returnAll: ctx.getNodeParameter('returnAll', itemIndex, false) as boolean,
				limit: Number(ctx.getNodeParameter('limit', itemIndex, 50)),
				pageSizeParam: 'max_results',
				maxPageSize: 100,
				tokenParam: 'pagination_token',
				onPage: (body) => {
					const tweets = ((body.includes as IDataObject | undefined)?.tweets ??
						[]) as IDataObject[];
					for (const t of tweets) posts.set(String(t.id), t);
				},
			},
		);
		return users.map((user) => {
			const merged: IDataObject = { ...user };
			if (user.pinned_tweet_id && posts.has(String(user.pinned_tweet_id)))
				merged.pinned_post = posts.get(String(user.pinned_tweet_id));
			if (user.most_recent_tweet_id && posts.has(String(user.most_recent_tweet_id)))
				merged.most_recent_post = posts.get(String(user.most_recent_tweet_id));
			return merged;
		});
	},
};
