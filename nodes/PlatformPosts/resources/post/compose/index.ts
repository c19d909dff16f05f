/** The post body shared by Post > Create and Post > Edit: its zod schema, its fields, and the send. */
export { COMPOSE_LABELS, composeSchema } from './schema';
export { attachmentFields, replyFields, sorted } from './fields';
export {
	MAY_HAVE_EDITED,
	MAY_HAVE_PUBLISHED,
	checkAttachments,
	composeBody,
	sendPost,
	uploadAttachments,
} from './send';
