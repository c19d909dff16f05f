import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

export const FEED_FORMATS = ['CSV', 'TSV', 'XML'] as const;
export const FREQUENCIES = ['HOURLY', 'DAILY', 'WEEKLY'] as const;
export const WEEKDAYS = [
	'MONDAY',
	'TUESDAY',
	'WEDNESDAY',
	'THURSDAY',
	'FRIDAY',
	'SATURDAY',
	'SUNDAY',
] as const;
export const HOURS = ['1', '2', '3', '4', '6', '8', '12'] as const;

const title = (v: string) => v.charAt(0) + v.slice(1).toLowerCase();

/** Whether the text names an IANA time zone the runtime knows (e.g. Europe/Berlin, America/New_York, UTC). */
export function isIanaTimeZone(value: string): boolean {
	if (!/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
	try {
		return Boolean(
			new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone,
		);
	} catch {
		return false;
	}
}

const feedUrl = z
	.string()
	.trim()
	.min(1, 'is required')
	.refine((v) => {
		try {
			return ['https:', 'http:'].includes(new URL(v).protocol);
		} catch {
			return false;
		}
	}, 'must be the http(s) URL of the hosted product file');
const startTime = z
	.string()
	.trim()
	.regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (24-hour clock), e.g. 02:30');
const timeZone = z
	.string()
	.trim()
	.refine(isIanaTimeZone, (v) => ({
		message: `"${v}" is not an IANA time zone name (like Europe/Berlin or America/New_York)`,
	}));

function repeatRule(
	frequency: string | undefined,
	repeat: string | undefined,
	ctx: z.RefinementCtx,
) {
	if (frequency === 'DAILY' && repeat) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['repeat'],
			message: 'must be empty for DAILY feeds',
		});
	}
	if (frequency === 'WEEKLY' && !(WEEKDAYS as readonly string[]).includes(repeat ?? '')) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['repeat'],
			message: `WEEKLY feeds need a weekday (${WEEKDAYS.join(', ')})`,
		});
	}
	if (frequency === 'HOURLY' && !(HOURS as readonly string[]).includes(repeat ?? '')) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['repeat'],
			message: `HOURLY feeds need one of ${HOURS.join(', ')} hours`,
		});
	}
	if (!frequency && repeat && ![...WEEKDAYS, ...HOURS].includes(repeat as never)) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['repeat'],
			message: `must be a weekday or one of ${HOURS.join(', ')} hours`,
		});
	}
}

export const createSchema = z
	.object({
		feed_url: feedUrl,
		feed_format: z.enum(FEED_FORMATS),
		frequency: z.enum(FREQUENCIES),
		repeat: z.string().optional(),
		start_time: startTime,
		time_zone: timeZone,
	})
	.superRefine((f, ctx) => repeatRule(f.frequency, f.repeat, ctx));

export const updateSchema = z
	.object({
		feed_url: feedUrl.optional(),
		feed_format: z.enum(FEED_FORMATS).optional(),
		frequency: z.enum(FREQUENCIES).optional(),
		repeat: z.string().optional(),
		start_time: startTime.optional(),
		time_zone: timeZone.optional(),
	})
	.superRefine((f, ctx) => {
		if (f.frequency || f.repeat) repeatRule(f.frequency, f.repeat, ctx);
		if (!Object.values(f).some((v) => v !== undefined)) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: 'nothing to update: add a field to Update Fields',
			});
		}
	});

export const LABELS = {
	feed_url: 'Feed URL',
	feed_format: 'Feed Format',
	frequency: 'Frequency',
	repeat: 'Repeat',
	start_time: 'Start Time',
	time_zone: 'Time Zone',
};

/** The repeat value from the fields shown for the chosen frequency. */
export function repeatFrom(frequency: unknown, fields: IDataObject): string | undefined {
	if (frequency === 'WEEKLY') return fields.weekday ? String(fields.weekday) : undefined;
	if (frequency === 'HOURLY') return fields.everyHours ? String(fields.everyHours) : undefined;
	if (frequency === undefined) {
		const value = fields.weekday ?? fields.everyHours;
		return value ? String(value) : undefined;
	}
	return undefined;
}

export const formatOptions = FEED_FORMATS.map((v) => ({ name: v, value: v }));
export const frequencyOptions = FREQUENCIES.map((v) => ({ name: title(v), value: v }));
export const weekdayOptions = WEEKDAYS.map((v) => ({ name: title(v), value: v }));
export const hourOptions = HOURS.map((v) => ({
	name: `Every ${v} Hour${v === '1' ? '' : 's'}`,
	value: v,
}));

export const startTimeProperty: Omit<INodeProperties, 'displayOptions'> = {
	displayName: 'Start Time',
	name: 'startTime',
	type: 'string',
	default: '02:00',
	placeholder: '02:00',
	description: 'When the feed is fetched, HH:MM in the time zone below',
};

export const timeZoneProperty: Omit<INodeProperties, 'displayOptions'> = {
	displayName: 'Time Zone',
	name: 'timeZone',
	type: 'string',
	default: 'UTC',
	placeholder: 'Europe/Berlin',
	description: 'IANA time zone name of the start time',
};
