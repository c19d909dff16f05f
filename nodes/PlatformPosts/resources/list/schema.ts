import { z } from 'zod';

/**
 * What the service takes for a list's name and description: a name of 1-25 characters, a description
 * of at most 100. Counted in characters (an emoji is one), as the service counts them.
 */
const chars = (value: string) => [...value].length;

export const listName = z
	.string()
	.refine((v) => v.trim().length > 0, 'must not be empty')
	.refine((v) => chars(v) <= 25, 'must be at most 25 characters');

export const listDescription = z
	.string()
	.refine((v) => chars(v) <= 100, 'must be at most 100 characters');

export const LIST_LABELS = { name: 'Name', description: 'Description', private: 'Private' };
