/**
 * The triggers' subtitle on the canvas in plain words ("On new post", "On new post and 2 more")
 * instead of the service's event names (post.create). An event without a label here (one added to
 * the Events list later) shows as "On <event name>".
 */
export const EVENT_LABELS: Record<string, string> = {
	'*': 'On any event',
	block: 'On block',
	unblock: 'On unblock',
	'dm.indicate_typing': 'On typing in a direct message',
	'dm.message': 'On direct message',
	'dm.read': 'On direct message read',
	'dm.received': 'On direct message received',
	'dm.sent': 'On direct message sent',
	favorite: 'On like',
	follow: 'On follow',
	unfollow: 'On unfollow',
	mute: 'On mute',
	unmute: 'On unmute',
	'post.create': 'On new post',
	'post.delete': 'On post deleted',
	'chat.received': 'On chat message received',
	'chat.sent': 'On chat message sent',
	'follow.follow': 'On follow',
	'follow.unfollow': 'On unfollow',
	'news.new': 'On news story',
	'profile.update.affiliate': 'On profile affiliation change',
	'profile.update.banner_picture': 'On profile banner change',
	'profile.update.bio': 'On profile bio change',
	'profile.update.geo': 'On profile location change',
	'profile.update.handle': 'On profile handle change',
	'profile.update.profile_picture': 'On profile picture change',
	'profile.update.screenname': 'On username change',
	'profile.update.url': 'On profile website change',
	'profile.update.verified': 'On verification change',
	'spaces.start': 'On Space started',
	'spaces.end': 'On Space ended',
	'user.revoke': 'On app access revoked',
};

const events = '($parameter["events"] || [])';
const labels = `(${JSON.stringify(EVENT_LABELS)})`;
/** The chosen events in words: the first one's label, and how many more. */
const eventsInWords =
	`(${labels}[${events}[0]] || "On " + ${events}[0]) + ` +
	`(${events}.length > 1 ? " and " + (${events}.length - 1) + " more" : "")`;

export const triggerSubtitle =
	`={{ $parameter["mode"] === "stream" ? "On new post matching search rules" : ` +
	`$parameter["mode"] === "accountActivity" ? "On any activity of the connected account" : ` +
	`${eventsInWords} }}`;

/** The Activity Stream Trigger's subtitle: its Events field, in the Platform Trigger's words. */
export const activityEventsSubtitle = `={{ ${eventsInWords} }}`;
