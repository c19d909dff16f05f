'use strict';
/**
 * The sandbox's own control API (no authentication; the server listens on 127.0.0.1 only):
 *
 *   GET    /_sandbox/health                 {ok, url, keys}
 *   GET    /_sandbox/requests[?since=&path=&method=]   recorded API requests (auth verdict, body, status)
 *   DELETE /_sandbox/requests               forget recorded requests
 *   POST   /_sandbox/reset                  empty every store
 *   POST   /_sandbox/options                {emitOnCreate, legacyShapes, allowInsecureWebhookUrls, webhookLimit,
 *                                            deliveryTimeoutMs, deliveryRetryDelaysMs: [ms, ...] the service's retries,
 *                                            rateLimits: [{method?, path, limit, windowS}] per-endpoint windows
 *                                            (lib/rateLimits.js; setting them starts new windows)}
 *   POST   /_sandbox/relations              {kind: follow|like|bookmark|list_member|list_follower, user_id, target_id}
 *                                            someone follows the user target_id, likes or bookmarks the post
 *                                            target_id, is added to or follows the list target_id; DELETE
 *                                            with the same body undoes it (done again, it is on top of the list)
 *   POST   /_sandbox/users                  {id?, username, name?} an account (the Followers read etc. list it)
 *   POST   /_sandbox/lists                  {id?, name?, owner_id?, private?, members?: [user ids, oldest first]}
 *   POST   /_sandbox/spaces                 {creator_id?, state?, title?, created_at?, id?} a Space (routes/spaces.js)
 *   POST   /_sandbox/tokens                 {scopes: [...]} an OAuth 2.0 user token granted only these scopes
 *   POST   /_sandbox/redeliver              {event_uuids: [...], webhook_id?} the service sends recorded events again
 *                                            (same bytes, same signature), as it does when it saw no acknowledgement
 *   POST   /_sandbox/faults                 {latencyMs, rules:[{status:429|500|503, count, path?, method?, resetAfterS?,
 *                                            delayMs? (without status: answer normally after the delay),
 *                                            skip? (the first N matching requests are answered normally)}]}
 *   DELETE /_sandbox/faults
 *   POST   /_sandbox/events                 {event_type, user_id?, text?, payload?, count?, forge?, unsigned?,
 *                                            webhook_id?, shape?: 'account_activity', negative_uuid?, media?,
 *                                            post_id?, reply_to? | repost_of? | quote_of? (a post id),
 *                                            deleted? (post.create: the post is deleted before the run)}
 *                                            emits signed deliveries and answers with their results
 *   POST   /_sandbox/stream/posts           {text, author_id?, post_id?, times?, forge?} a post seen by the filtered
 *                                            stream: delivered (signed) to linked webhooks when it matches rules
 *   POST   /_sandbox/posts                  {text, author_id?} a post someone publishes: stored, so recent search and
 *                                            the author's timeline find it (no webhook delivery)
 *   POST   /_sandbox/webhooks/:id/crc       run a CRC check now (like the periodic check)
 *   POST   /_sandbox/replay                 {webhook_id?, from_date?, to_date?} start a replay job (defaults: the
 *                                            only webhook, the last 24 hours up to now)
 *   POST   /_sandbox/sink/:name             record a body (workflows under test call it once per run); GET lists them
 *   GET    /_sandbox/state                  webhooks, subscriptions, events, deliveries, CRC checks, replay jobs,
 *                                            posts, media, catalogs, products, cards, scheduled posts...
 */
const crypto = require('node:crypto');
const { invalidRequest, notFound } = require('../lib/http');
const rateLimits = require('../lib/rateLimits');

function install(sb) {
	const C = 'control';
	const plain = (v) =>
		v instanceof Map
			? [...v.values()].map(plain)
			: v && v.segments instanceof Map
				? Object.assign({}, v, { segments: [...v.segments.keys()] })
				: v;

	// A small PNG for example workflows ("post with an image") that must not depend on the internet.
	const SAMPLE_PNG = Buffer.from(
		'iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAIAAAAlC+aJAAAedklEQVR42hXZkf+zUBTH8R8MgkEQBEEQBEEQBEEwCIIgGAwGgyAYDIJBMBgEg8Eg+EAQBMFgMBgMBsFgMBgMgkEwGAyCZ09/wX3f1+3c7zn37++PwR/CH8M/xD+kP+Q/lD/UP7Q/9D+MP8w/rD/sP5w/3D9Gf3h/+H8Ef4R/jP+Y/DH9Y/ZH9Ef8x/yPxR/JH8s/0j9Wf6z/yP7Y/LH9Y/dH/gd/FH+Uf1R/1H/s/zj8cfzj9Mf5j8sfzR/XP25/3P94/PH8o/3j9Uf3x/uPzx/fP/o//v4GDAYIA4YDxAHSAHmAMkAdoA3QBxgDzAHWAHuAM8AdMBrgDfAHBAPCAeMBkwHTAbMB0YB4wHzAYkAyYDkgHbAasB6QDdgM2A7YDcgHMKAYUA6oBtQD9gMOA44DTgPOAy4DmgHXAbcB9wGPAc8B7YDXgG7Ae8BnwHdAP/gBBAYCgsBQQBSQBGQBRUAV0AR0AUPAFLAEbAFHwBUYCXgCvkAgEAqMBSYCU4GZQCQQC8wFFgKJwFIgFVgJrAUygY3AVmAnkAsgUAiUApVALbAXOAgcBU4CZ4GLQCNwFbgJ3AUeAk+BVuAl0Am8BT4CX4Fe+AGGDIYIQ4ZDxCHSEHmIMkQdog3RhxhDzCHWEHuIM8QdMhriDfGHBEPCIeMhkyHTIbMh0ZB4yHzIYkgyZDkkHbIash6SDdkM2Q7ZDcmHMKQYUg6phtRD9kMOQ45DTkPOQy5DmiHXIbch9yGPIc8h7ZDXkG7Ie8hnyHdIP/wBRAYigshQRBSRRGQRRUQV0UR0EUPEFLFEbBFHxBUZiXgivkggEoqMRSYiU5GZSCQSi8xFFiKJyFIkFVmJrEUykY3IVmQnkosgUoiUIpVILbIXOYgcRU4iZ5GLSCNyFbmJ3EUeIk+RVuQl0om8RT4iX5Fe/AEkBhKCxFBClJAkZAlFQpXQJHQJQ8KUsCRsCUfClRhJeBK+RCARSowlJhJTiZlEJBFLzCUWEonEUiKVWEmsJTKJjcRWYieRSyBRSJQSlUQtsZc4SBwlThJniYtEI3GVuEncJR4ST4lW4iXRSbwlPhJfiV76AWQGMoLMUEaUkWRkGUVGldFkdBlDxpSxZGwZR8aVGcl4Mr5MIBPKjGUmMlOZmUwkE8vMZRYyicxSJpVZyaxlMpmNzFZmJ5PLIFPIlDKVTC2zlznIHGVOMmeZi0wjc5W5ydxlHjJPmVbmJdPJvGU+Ml+ZXv4BFAYKgsJQQVSQFGQFRUFV0BR0BUPBVLAUbAVHwVUYKXgKvkKgECqMFSYKU4WZQqQQK8wVFgqJwlIhVVgprBUyhY3CVmGnkCugUCiUCpVCrbBXOCgcFU4KZ4WLQqNwVbgp3BUeCk+FVuGl0Cm8FT4KX4Ve+QFUBiqCylBFVJFUZBVFRVXRVHQVQ8VUsVRsFUfFVRmpeCq+SqASqoxVJipTlZlKpBKrzFUWKonKUiVVWamsVTKVjcpWZaeSq6BSqJQqlUqtslc5qBxVTipnlYtKo3JVuancVR4qT5VW5aXSqbxVPipflV79ATQGGoLGUEPUkDRkDUVD1dA0dA1Dw9SwNGwNR8PVGGl4Gr5GoBFqjDUmGlONmUakEWvMNRYaicZSI9VYaaw1Mo2NxlZjp5FroFFolBqVRq2x1zhoHDVOGmeNi0ajcdW4adw1HhpPjVbjpdFpvDU+Gl+NXvsBdAY6gs5QR9SRdGQdRUfV0XR0HUPH1LF0bB1Hx9UZ6Xg6vk6gE+qMdSY6U52ZTqQT68x1FjqJzlIn1VnprHUynY3OVmenk+ugU+iUOpVOrbPXOegcdU46Z52LTqNz1bnp3HUeOk+dVuel0+m8dT46X51e/wEMBgaCwdBANJAMZAPFQDXQDHQDw8A0sAxsA8fANRgZeAa+QWAQGowNJgZTg5lBZBAbzA0WBonB0iA1WBmsDTKDjcHWYGeQG2BQGJQGlUFtsDc4GBwNTgZng4tBY3A1uBncDR4GT4PW4GXQGbwNPgZfg974AUwGJoLJ0EQ0kUxkE8VENdFMdBPDxDSxTGwTx8Q1GZl4Jr5JYBKajE0mJlOTmUlkEpvMTRYmicnSJDVZmaxNMpONydZkZ5KbYFKYlCaVSW2yNzmYHE1OJmeTi0ljcjW5mdxNHiZPk9bkZdKZvE0+Jl+T3vwBLAYWgsXQQrSQLGQLxUK10Cx0C8PCtLAsbAvHwrUYWXgWvkVgEVqMLSYWU4uZRWQRW8wtFhaJxdIitVhZrC0yi43F1mJnkVtgUViUFpVFbbG3OFgcLU4WZ4uLRWNxtbhZ3C0eFk+L1uJl0Vm8LT4WX4ve+gFsBjaCzdBGtJFsZBvFRrXRbHQbw8a0sWxsG8fGtRnZeDa+TWAT2oxtJjZTm5lNZBPbzG0WNonN0ia1WdmsbTKbjc3WZmeT22BT2JQ2lU1ts7c52BxtTjZnm4tNY3O1udncbR42T5vW5mXT2bxtPjZfm97+ARwGDoLD0EF0kBxkB8VBddAcdAfDwXSwHGwHx8F1GDl4Dr5D4BA6jB0mDlOHmUPkEDvMHRYOicPSIXVYOawdMoeNw9Zh55A74FA4lA6VQ+2wdzg4HB1ODmeHi0PjcHW4OdwdHg5Ph9bh5dA5vB0+Dl+H3vkBXAYugsvQRXSRXGQXxUV10Vx0F8PFdLFcbBfHxXUZuXguvkvgErqMXSYuU5eZS+QSu8xdFi6Jy9IldVm5rF0yl43L1mXnkrvgUriULpVL7bJ3ObgcXU4uZ5eLS+Nydbm53F0eLk+X1uXl0rm8XT4uX5fe/QFGDEYII4YjxBHSCHmEMkIdoY3QRxgjzBHWCHuEM8IdMRrhjfBHBCPCEeMRkxHTEbMR0Yh4xHzEYkQyYjkiHbEasR6RjdiM2I7YjchHMKIYUY6oRtQj9iMOI44jTiPOIy4jmhHXEbcR9xGPEc8R7YjXiG7Ee8RnxHdEP/oBPAYegsfQQ/SQPGQPxUP10Dx0D8PD9LA8bA/Hw/UYeXgevkfgEXqMPSYeU4+ZR+QRe8w9Fh6Jx9Ij9Vh5rD0yj43H1mPnkXvgUXiUHpVH7bH3OHgcPU4eZ4+LR+Nx9bh53D0eHk+P1uPl0Xm8PT4eX4/e+wF8Bj6Cz9BH9JF8ZB/FR/XRfHQfw8f0sXxsH8fH9Rn5eD6+T+AT+ox9Jj5Tn5lP5BP7zH0WPonP0if1WfmsfTKfjc/WZ+eT++BT+JQ+lU/ts/c5+Bx9Tj5nn4tP43P1ufncfR4+T5/W5+XT+bx9Pj5fn97/AQIGAULAMEAMkALkACVADdAC9AAjwAywAuwAJ8ANGAV4AX5AEBAGjAMmAdOAWUAUEAfMAxYBScAyIA1YBawDsoBNwDZgF5AHEFAElAFVQB2wDzgEHANOAeeAS0ATcA24BdwDHgHPgDbgFdAFvAM+Ad+APvgBQgYhQsgwRAyRQuQQJUQN0UL0ECPEDLFC7BAnxA0ZhXghfkgQEoaMQyYh05BZSBQSh8xDFiFJyDIkDVmFrEOykE3INmQXkocQUoSUIVVIHbIPOYQcQ04h55BLSBNyDbmF3EMeIc+QNuQV0oW8Qz4h35A+/AHGDMYIY4ZjxDHSGHmMMkYdo43RxxhjzDHWGHuMM8YdMxrjjfHHBGPCMeMxkzHTMbMx0Zh4zHzMYkwyZjkmHbMasx6TjdmM2Y7ZjcnHMKYYU46pxtRj9mMOY45jTmPOYy5jmjHXMbcx9zGPMc8x7ZjXmG7Me8xnzHdMP/4BJgwmCBOGE8QJ0gR5gjJBnaBN0CcYE8wJ1gR7gjPBnTCa4E3wJwQTwgnjCZMJ0wmzCdGEeMJ8wmJCMmE5IZ2wmrCekE3YTNhO2E3IJzChmFBOqCbUE/YTDhOOE04TzhMuE5oJ1wm3CfcJjwnPCe2E14RuwnvCZ8J3Qj/5AaYMpghThlPEKdIUeYoyRZ2iTdGnGFPMKdYUe4ozxZ0ymuJN8acEU8Ip4ymTKdMpsynRlHjKfMpiSjJlOSWdspqynpJN2UzZTtlNyacwpZhSTqmm1FP2Uw5TjlNOU85TLlOaKdcptyn3KY8pzyntlNeUbsp7ymfKd0o//QFmDGYIM4YzxBnSDHmGMkOdoc3QZxgzzBnWDHuGM8OdMZrhzfBnBDPCGeMZkxnTGbMZ0Yx4xnzGYkYyYzkjnbGasZ6RzdjM2M7YzchnMKOYUc6oZtQz9jMOM44zTjPOMy4zmhnXGbcZ9xmPGc8Z7YzXjG7Ge8ZnxndGP/sBIgYRQsQwQoyQIuQIJUKN0CL0CCPCjLAi7Agnwo0YRXgRfkQQEUaMIyYR04hZRBQRR8wjFhFJxDIijVhFrCOyiE3ENmIXkUcQUUSUEVVEHbGPOEQcI04R54hLRBNxjbhF3CMeEc+INuIV0UW8Iz4R34g++gFiBjFCzDBGjJFi5BglRo3RYvQYI8aMsWLsGCfGjRnFeDF+TBATxoxjJjHTmFlMFBPHzGMWMUnMMiaNWcWsY7KYTcw2ZheTxxBTxJQxVUwds485xBxjTjHnmEtME3ONucXcYx4xz5g25hXTxbxjPjHfmD7+AeYM5ghzhnPEOdIceY4yR52jzdHnGHPMOdYce44zx50zmuPN8ecEc8I54zmTOdM5sznRnHjOfM5iTjJnOSeds5qznpPN2czZztnNyecwp5hTzqnm1HP2cw5zjnNOc85zLnOaOdc5tzn3OY85zzntnNecbs57zmfOd04//wEWDBYIC4YLxAXSAnmBskBdoC3QFxgLzAXWAnuBs8BdMFrgLfAXBAvCBeMFkwXTBbMF0YJ4wXzBYkGyYLkgXbBasF6QLdgs2C7YLcgXsKBYUC6oFtQL9gsOC44LTgvOCy4LmgXXBbcF9wWPBc8F7YLXgm7Be8FnwXdBv/gBEgYJQsIwQUyQEuQEJUFN0BL0BCPBTLAS7AQnwU0YJXgJfkKQECaMEyYJ04RZQpQQJ8wTFglJwjIhTVglrBOyhE3CNmGXkCeQUCSUCVVCnbBPOCQcE04J54RLQpNwTbgl3BMeCc+ENuGV0CW8Ez4J34Q++QGWDJYIS4ZLxCXSEnmJskRdoi3RlxhLzCXWEnuJs8RdMlriLfGXBEvCJeMlkyXTJbMl0ZJ4yXzJYkmyZLkkXbJasl6SLdks2S7ZLcmXsKRYUi6pltRL9ksOS45LTkvOSy5LmiXXJbcl9yWPJc8l7ZLXkm7Je8lnyXdJv/wBUgYpQsowRUyRUuQUJUVN0VL0FCPFTLFS7BQnxU0ZpXgpfkqQEqaMUyYp05RZSpQSp8xTFilJyjIlTVmlrFOylE3KNmWXkqeQUqSUKVVKnbJPOaQcU04p55RLSpNyTbml3FMeKc+UNuWV0qW8Uz4p35Q+/QFWDFYIK4YrxBXSCnmFskJdoa3QVxgrzBXWCnuFs8JdMVrhrfBXBCvCFeMVkxXTFbMV0Yp4xXzFYkWyYrkiXbFasV6Rrdis2K7YrchXsKJYUa6oVtQr9isOK44rTivOKy4rmhXXFbcV9xWPFc8V7YrXim7Fe8VnxXdFv/oB1gzWCGuGa8Q10hp5jbJGXaOt0dcYa8w11hp7jbPGXTNa463x1wRrwjXjNZM10zWzNdGaeM18zWJNsma5Jl2zWrNek63ZrNmu2a3J17CmWFOuqdbUa/ZrDmuOa05rzmsua5o11zW3Nfc1jzXPNe2a15puzXvNZ813Tb/+ATIGGULGMEPMkDLkDCVDzdAy9Awjw8ywMuwMJ8PNGGV4GX5GkBFmjDMmGdOMWUaUEWfMMxYZScYyI81YZawzsoxNxjZjl5FnkFFklBlVRp2xzzhkHDNOGeeMS0aTcc24ZdwzHhnPjDbjldFlvDM+Gd+MPvsBNgw2CBuGG8QN0gZ5g7JB3aBt0DcYG8wN1gZ7g7PB3TDa4G3wNwQbwg3jDZMN0w2zDdGGeMN8w2JDsmG5Id2w2rDekG3YbNhu2G3IN7Ch2FBuqDbUG/YbDhuOG04bzhsuG5oN1w23DfcNjw3PDe2G14Zuw3vDZ8N3Q7/5AbYMtghbhlvELdIWeYuyRd2ibdG3GFvMLdYWe4uzxd0y2uJt8bcEW8It4y2TLdMtsy3RlnjLfMtiS7JluSXdstqy3pJt2WzZbtltybewpdhSbqm21Fv2Ww5bjltOW85bLluaLdctty33LY8tzy3tlteWbst7y2fLd0u//QF2DHYIO4Y7xB3SDnmHskPdoe3Qdxg7zB3WDnuHs8PdMdrh7fB3BDvCHeMdkx3THbMd0Y54x3zHYkeyY7kj3bHasd6R7djs2O7Y7ch3sKPYUe6odtQ79jsOO447TjvOOy47mh3XHbcd9x2PHc8d7Y7Xjm7He8dnx3dHv/sBcgY5Qs4wR8yRcuQcJUfN0XL0HCPHzLFy7Bwnx80Z5Xg5fk6QE+aMcyY505xZTpQT58xzFjlJzjInzVnlrHOynE3ONmeXk+eQU+SUOVVOnbPPOeQcc04555xLTpNzzbnl3HMeOc+cNueV0+W8cz4535w+/wH+P3gi/H90Q/z/8IP8//EB9f8AHP3/EBbz/yAQ+/8wCvf/QATvf1P+a2t/jeGvtfo1J794/wvIv4j5C2m/mPMLCr+r9ndZ/cr9r2D+Ss7vp/0d+9/B+W39b/H/vwJKqKCGPRzgCCc4wwUauMIN7vCAJ7Twgg7e8IEv9PwABYMCoWBYIBZIBXKBUqAWaAV6gVFgFlgFdoFT4BaMCrwCvyAoCAvGBZOCacGsICqIC+YFi4KkYFmQFqwK1gVZwaZgW7AryIv/yy8KyoKqoC7YFxwKjgWngnPBpaApuBbcCu4Fj4JnQVvwKugK3gWfgm9BX/wAJYMSoWRYIpZIJXKJUqKWaCV6iVFillgldolT4paMSrwSvyQoCUvGJZOSacmsJCqJS+Yli5KkZFmSlqxK1iVZyaZkW7Irycv/m1+UlCVVSV2yLzmUHEtOJeeSS0lTci25ldxLHiXPkrbkVdKVvEs+Jd+SvvwBKgYVQsWwQqyQKuQKpUKt0Cr0CqPCrLAq7Aqnwq0YVXgVfkVQEVaMKyYV04pZRVQRV8wrFhVJxbIirVhVrCuyik3FtmJXkVf/j05RUVZUFXXFvuJQcaw4VZwrLhVNxbXiVnGveFQ8K9qKV0VX8a74VHwr+uoHqBnUCDXDGrFGqpFrlBq1RqvRa4was8aqsWucGrdmVOPV+DVBTVgzrpnUTGtmNVFNXDOvWdQkNcuatGZVs67JajY125pdTV7/P/hFTVlT1dQ1+5pDzbHmVHOuudQ0NdeaW8295lHzrGlrXjVdzbvmU/Ot6esfYM9gj7BnuEfcI+2R9yh71D3aHn2PscfcY+2x9zh73D2jPd4ef0+wJ9wz3jPZM90z2xPtiffM9yz2JHuWe9I9qz3rPdmezZ7tnt2efP//ty32lHuqPfWe/Z7DnuOe057znsueZs91z23Pfc9jz3NPu+e1p9vz3vPZ893T73+AA4MDwoHhAfGAdEA+oBxQD2gH9APGAfOAdcA+4BxwD4wOeAf8A8GB8MD4wOTA9MDsQHQgPjA/sDiQHFgeSA+sDqwPZAc2B7YHdgfyw/+iUxwoD1QH6gP7A4cDxwOnA+cDlwPNgeuB24H7gceB54H2wOtAd+B94HPge6A//ABHBkeEI8Mj4hHpiHxEOaIe0Y7oR4wj5hHriH3EOeIeGR3xjvhHgiPhkfGRyZHpkdmR6Eh8ZH5kcSQ5sjySHlkdWR/JjmyObI/sjuTH/yWzOFIeqY7UR/ZHDkeOR05HzkcuR5oj1yO3I/cjjyPPI+2R15HuyPvI58j3SH/8AU4MTggnhifEE9IJ+YRyQj2hndBPGCfME9YJ+4Rzwj0xOuGd8E8EJ8IT4xOTE9MTsxPRifjE/MTiRHJieSI9sTqxPpGd2JzYntidyE//C35xojxRnahP7E8cThxPnE6cT1xONCeuJ24n7iceJ54n2hOvE92J94nPie+J/vQDnBmcEc4Mz4hnpDPyGeWMekY7o58xzphnrDP2GeeMe2Z0xjvjnwnOhGfGZyZnpmdmZ6Iz8Zn5mcWZ5MzyTHpmdWZ9JjuzObM9szuTn/9fV8WZ8kx1pj6zP3M4czxzOnM+cznTnLmeuZ25n3mceZ5pz7zOdGfeZz5nvmf68w9wYXBBuDC8IF6QLsgXlAvqBe2CfsG4YF6wLtgXnAvuhdEF74J/IbgQXhhfmFyYXphdiC7EF+YXFheSC8sL6YXVhfWF7MLmwvbC7kJ++X/ZFhfKC9WF+sL+wuHC8cLpwvnC5UJz4XrhduF+4XHheaG98LrQXXhf+Fz4XugvP0DDoEFoGDaIDVKD3KA0qA1ag95gNJgNVoPd4DS4DaMGr8FvCBrChnHDpGHaMGuIGuKGecOiIWlYNqQNq4Z1Q9awadg27Bry5n9UKBrKhqqhbtg3HBqODaeGc8OloWm4Ntwa7g2PhmdD2/Bq6BreDZ+Gb0Pf/ABXBleEK8Mr4hXpinxFuaJe0a7oV4wr5hXrin3FueJeGV3xrvhXgivhlfGVyZXpldmV6Ep8ZX5lcSW5srySXlldWV/JrmyubK/sruTX/0GnuFJeqa7UV/ZXDleOV05XzlcuV5or1yu3K/crjyvPK+2V15XuyvvK58r3Sn/9AW4Mbgg3hjfEG9IN+YZyQ72h3dBvGDfMG9YN+4Zzw70xuuHd8G8EN8Ib4xuTG9MbsxvRjfjG/MbiRnJjeSO9sbqxvpHd2NzY3tjdyG//Y1pxo7xR3ahv7G8cbhxvnG6cb1xuNDeuN2437jceN5432huvG92N943Pje+N/vYD3BncEe4M74h3pDvyHeWOeke7o98x7ph3rDv2HeeOe2d0x7vj3wnuhHfGdyZ3pndmd6I78Z35ncWd5M7yTnpndWd9J7uzubO9s7uT3/+HzOJOeae6U9/Z3zncOd453Tnfudxp7lzv3O7c7zzuPO+0d153ujvvO5873zv9/Qd4MHggPBg+EB9ID+QHygP1gfZAf2A8MB9YD+wHzgP3weiB98B/EDwIH4wfTB5MH8weRA/iB/MHiwfJg+WD9MHqwfpB9mDzYPtg9yB//I/IxYPyQfWgfrB/cHhwfHB6cH5wedA8uD64Pbg/eDx4PmgfvB50D94PPg++D/rHD/Bk8ER4MnwiPpGeyE+UJ+oT7Yn+xHhiPrGe2E+cJ+6T0RPvif8keBI+GT+ZPJk+mT2JnsRP5k8WT5Inyyfpk9WT9ZPsyebJ9snuSf78H/CLJ+WT6kn9ZP/k8OT45PTk/OTypHlyfXJ7cn/yePJ80j55PemevJ98nnyf9M8foGXQIrQMW8QWqUVuUVrUFq1FbzFazBarxW5xWtyWUYvX4rcELWHLuGXSMm2ZtUQtccu8ZdGStCxb0pZVy7ola9m0bFt2LXn7vz0pWsqWqqVu2bccWo4tp5Zzy6Wlabm23FruLY+WZ0vb8mrpWt4tn5ZvS9/+AC8GL4QXwxfiC+mF/EJ5ob7QXugvjBfmC+uF/cJ54b4YvfBe+C+CF+GL8YvJi+mL2YvoRfxi/mLxInmxfJG+WL1Yv8hebF5sX+xe5K//zVXxonxRvahf7F8cXhxfnF6cX1xeNC+uL24v7i8eL54v2hevF92L94vPi++L/vUDdAw6hI5hh9ghdcgdSofaoXXoHUaH2WF12B1Oh9sx6vA6/I6gI+wYd0w6ph2zjqgj7ph3LDqSjmVH2rHqWHdkHZuObceuI+/+t4ZFR9lRddQd+45Dx7Hj1HHuuHQ0HdeOW8e949Hx7Gg7Xh1dx7vj0/Ht6Lsf4M3gjfBm+EZ8I72R3yhv1DfaG/2N8cZ8Y72x3zhv3DejN94b/03wJnwzfjN5M30zexO9id/M3yzeJG+Wb9I3qzfrN9mbzZvtm92b/P2/sS3elG+qN/Wb/ZvDm+Ob05vzm8ub5s31ze3N/c3jzfNN++b1pnvzfvN5833Tv3+AD4MPwofhB/GD9EH+oHxQP2gf9A/GB/OD9cH+4HxwP4w+eB/8D8GH8MP4w+TD9MPsQ/Qh/jD/sPiQfFh+SD+sPqw/ZB82H7Yfdh/yz/+2vPhQfqg+1B/2Hw4fjh9OH84fLh+aD9cPtw/3D48Pzw/th9eH7sP7w+fD90P/+QG+DL4IX4ZfxC/SF/mL8kX9on3RvxhfzC/WF/uL88X9MvriffG/BF/CL+Mvky/TL7Mv0Zf4y/zL4kvyZfkl/bL6sv6Sfdl82X7Zfcm//4cKxZfyS/Wl/rL/cvhy/HL6cv5y+dJ8uX65fbl/eXx5fmm/vL50X95fPl++X/rvD9Az6BF6hj1ij9Qj9yg9ao/Wo/cYPWaP1WP3OD1uz6jH6/F7gp6wZ9wz6Zn2zHqinrhn3rPoSXqWPWnPqmfdk/VserY9u568/z8SKXrKnqqn7tn3HHqOPaeec8+lp+m59tx67j2PnmdP2/Pq6XrePZ+eb0/f8w9ki8F4QtfpCAAAAABJRU5ErkJggg==',
		'base64',
	);
	sb.route('GET', '/_sandbox/sample.png', C, () => ({
		body: SAMPLE_PNG,
		headers: { 'content-type': 'image/png' },
	}));
	// A small MP4 whose movie header says 15 seconds (16:9), for video cards built from a binary video.
	const box = (type, body) =>
		Buffer.concat([
			Buffer.from([0, 0, 0, 0].map((_, i) => ((8 + body.length) >>> (24 - 8 * i)) & 255)),
			Buffer.from(type, 'latin1'),
			body,
		]);
	const mvhd = Buffer.alloc(100);
	mvhd.writeUInt32BE(1000, 12);
	mvhd.writeUInt32BE(15000, 16);
	const SAMPLE_MP4 = Buffer.concat([
		box('ftyp', Buffer.from('isom\0\0\0\0isommp41', 'latin1')),
		box('moov', box('mvhd', mvhd)),
		box('mdat', Buffer.alloc(4096, 7)),
	]);
	sb.sampleMp4 = SAMPLE_MP4;
	sb.route('GET', '/_sandbox/sample.mp4', C, () => ({
		body: SAMPLE_MP4,
		headers: { 'content-type': 'video/mp4' },
	}));
	// Images of emitted posts (their includes.media url): downloadable, never media keys of the upload store.
	sb.samplePng = SAMPLE_PNG;
	sb.route('GET', '/_sandbox/post-media/:key', C, ({ params }) => {
		const m = sb.db.postMedia && sb.db.postMedia.get(String(params.key));
		if (!m) return { status: 404, body: { error: 'no such post media' } };
		if (m.deleted) return { status: 404, body: { error: 'the post of this media was deleted' } };
		return { body: SAMPLE_PNG, headers: { 'content-type': 'image/png' } };
	});
	/** A merchant's existing catalog (for the "nightly product push" demo). */
	sb.seedCatalog = (name = 'Sandbox Shop') => {
		const existing = [...sb.db.ads.catalogs.values()].find((c) => c.owner === sb.keys.userId);
		if (existing) return existing;
		const c = { id: '1790000000000000001', name, owner: sb.keys.userId };
		sb.db.ads.catalogs.set(c.id, c);
		sb.db.ads.products.set(c.id, new Map());
		return c;
	};
	sb.route('POST', '/_sandbox/seed/catalog', C, () => ({ body: { data: sb.seedCatalog() } }));
	sb.route('GET', '/_sandbox/health', C, () => ({
		body: { ok: true, url: sb.url, keys: sb.keys },
	}));
	sb.route('GET', '/_sandbox/requests', C, ({ q }) => {
		const since = Number(q.since || 0);
		let rows = sb.records.filter((r) => r.seq > since);
		if (q.path) rows = rows.filter((r) => r.path.includes(q.path));
		if (q.method) rows = rows.filter((r) => r.method === q.method.toUpperCase());
		return { body: { seq: sb.seq, requests: rows } };
	});
	sb.route('DELETE', '/_sandbox/requests', C, () => {
		sb.records = [];
		return { body: { ok: true, seq: sb.seq } };
	});
	sb.route('POST', '/_sandbox/reset', C, () => {
		sb.reset();
		return { body: { ok: true } };
	});
	sb.route('POST', '/_sandbox/options', C, ({ body }) => {
		const b = body || {};
		if (
			b.deliveryRetryDelaysMs !== undefined &&
			!(
				Array.isArray(b.deliveryRetryDelaysMs) &&
				b.deliveryRetryDelaysMs.length <= 10 &&
				b.deliveryRetryDelaysMs.every((d) => Number.isInteger(d) && d >= 0 && d <= 600000)
			)
		)
			throw invalidRequest(
				'deliveryRetryDelaysMs: at most 10 delays, each an integer from 0 to 600000 ms',
				{ deliveryRetryDelaysMs: [b.deliveryRetryDelaysMs] },
			);
		if (b.tier !== undefined && !['selfServe', 'enterprise'].includes(b.tier))
			throw invalidRequest('tier: selfServe or enterprise', { tier: [String(b.tier)] });
		if (b.rateLimits !== undefined) {
			const bad = rateLimits.invalidRules(b.rateLimits);
			if (bad) throw invalidRequest(bad, { rateLimits: [b.rateLimits] });
			// New rules start new windows.
			sb.rateWindows.clear();
		}
		for (const k of [
			'rateLimits',
			'emitOnCreate',
			'legacyShapes',
			'allowInsecureWebhookUrls',
			'webhookLimit',
			'deliveryTimeoutMs',
			'deliveryRetryDelaysMs',
			'tier',
		])
			if (b[k] !== undefined) sb.options[k] = b[k];
		return { body: { options: sb.options } };
	});
	/** An account someone else holds: followers, list members and authors of posts are such users. */
	sb.addUser = (input = {}) => {
		const id = input.id !== undefined ? String(input.id) : sb.newId();
		if (!/^[0-9]{1,19}$/.test(id)) throw invalidRequest('id: 1 to 19 digits', { id: [id] });
		const username = String(input.username || `user_${id.slice(-8)}`);
		if (!/^[A-Za-z0-9_]{1,15}$/.test(username))
			throw invalidRequest('username: 1 to 15 letters, digits or _', { username: [username] });
		sb.reserveId(id);
		const user = {
			id,
			name: String(input.name || username),
			username,
			created_at: '2024-06-01T00:00:00.000Z',
			description: '',
			protected: false,
			verified: false,
			verified_type: 'none',
			public_metrics: { followers_count: 0, following_count: 0, tweet_count: 0, listed_count: 0 },
		};
		sb.db.users.set(id, user);
		return user;
	};
	sb.route('POST', '/_sandbox/users', C, ({ body }) => ({
		status: 201,
		body: { data: sb.addUser(body || {}) },
	}));

	const LIST_KINDS = ['list_member', 'list_follower'];
	/**
	 * Someone follows a user, likes or bookmarks a post, is added to or follows a list (`on`), or undoes
	 * it: what the API routes do for the authenticated user, for any user. Answers whether it changed.
	 */
	sb.setRelation = (input, on) => {
		const b = input || {};
		const kinds = [...sb.relationKinds, ...LIST_KINDS];
		if (!kinds.includes(b.kind))
			throw invalidRequest(`kind: one of ${kinds.join(', ')}`, { kind: [String(b.kind)] });
		const user = String(b.user_id ?? '');
		const target = String(b.target_id ?? '');
		if (!sb.db.users.get(user)) throw notFound('user', 'user_id', user);
		if (LIST_KINDS.includes(b.kind)) return sb.listRelate(b.kind, target, user, on);
		if (b.kind === 'follow') {
			if (!sb.db.users.get(target)) throw notFound('user', 'target_id', target);
			return sb.relate('follow', user, target, on);
		}
		const post = sb.db.tweets.get(target);
		if (!post || post.deleted) throw notFound('tweet', 'target_id', target);
		// Through the API routes' own bookkeeping, so that counts and bookmark folders follow.
		const before = sb.related(b.kind, { from: user }).includes(target);
		sb.onEngagement(b.kind === 'like' ? 'liked' : 'bookmarked', on, user, target);
		return before !== on;
	};
	sb.route('POST', '/_sandbox/relations', C, ({ body }) => ({
		body: { changed: sb.setRelation(body, true) },
	}));
	sb.route('DELETE', '/_sandbox/relations', C, ({ body }) => ({
		body: { changed: sb.setRelation(body, false) },
	}));

	// An OAuth 2.0 user token granted only these scopes (the default user token has every scope):
	// a request needing a scope the user did not grant is refused as the service refuses it.
	sb.route('POST', '/_sandbox/tokens', C, ({ body }) => {
		const scopes = body && body.scopes;
		if (!Array.isArray(scopes) || scopes.some((s) => typeof s !== 'string'))
			throw invalidRequest('scopes: a list of OAuth 2.0 scope names', { scopes: [scopes] });
		const token = 'sandbox-oauth2-scoped-' + crypto.randomBytes(8).toString('hex');
		sb.bearers[token] = { kind: 'user', userId: sb.keys.userId, scopes };
		return { status: 201, body: { access_token: token, scope: scopes.join(' ') } };
	});
	sb.route('POST', '/_sandbox/faults', C, ({ body }) => {
		const b = body || {};
		if (b.latencyMs !== undefined) sb.faults.latencyMs = Math.max(0, Number(b.latencyMs) || 0);
		for (const r of b.rules || []) {
			const delayMs = Math.max(0, Number(r.delayMs) || 0);
			const status = r.status !== undefined ? Number(r.status) || 503 : delayMs ? 0 : 503;
			sb.faults.rules.push({
				status,
				delayMs,
				remaining: Number(r.count) || 1,
				path: r.path,
				method: r.method,
				resetAfterS: r.resetAfterS,
				skip: Math.max(0, Number(r.skip) || 0),
			});
		}
		return { body: { faults: sb.faults } };
	});
	sb.route('DELETE', '/_sandbox/faults', C, () => {
		sb.faults = { latencyMs: 0, rules: [] };
		return { body: { faults: sb.faults } };
	});
	sb.route('POST', '/_sandbox/events', C, async ({ body }) => ({
		body: { events: await sb.emit(body || {}) },
	}));
	sb.route('POST', '/_sandbox/redeliver', C, async ({ body }) => {
		const b = body || {};
		const ids = b.event_uuids;
		if (
			!Array.isArray(ids) ||
			!ids.length ||
			ids.length > 1000 ||
			ids.some((i) => typeof i !== 'string')
		)
			throw invalidRequest('event_uuids: 1 to 1000 event ids (strings)', { event_uuids: [ids] });
		return { body: { deliveries: await sb.redeliver(ids, { webhookId: b.webhook_id }) } };
	});
	sb.route('POST', '/_sandbox/stream/posts', C, async ({ body }) => ({
		body: await sb.emitStreamPost(body || {}),
	}));
	sb.route('POST', '/_sandbox/posts', C, ({ body }) => ({
		status: 201,
		body: { data: sb.publishPost(body || {}) },
	}));
	sb.route('POST', '/_sandbox/webhooks/:id/crc', C, async ({ params }) => {
		const w = sb.db.webhooks.get(params.id);
		if (!w) throw invalidRequest('WebhookIdInvalid', { webhook_id: [params.id] });
		return { body: { check: await sb.crc(w, { reason: 'control', nonce: true }), webhook: w } };
	});
	/**
	 * What the service does after its CRC checks of a webhook have failed for long enough: it marks the
	 * webhook invalid and stops delivering to it (events keep being recorded for replay). The sandbox
	 * sends one CRC check now and, only when it fails, marks the webhook invalid at once (the service's
	 * 28 hours of failures, compressed). A webhook that answers its check is not invalidated: 409.
	 */
	sb.route('POST', '/_sandbox/webhooks/:id/invalidate', C, async ({ params }) => {
		const w = sb.db.webhooks.get(params.id);
		if (!w) throw invalidRequest('WebhookIdInvalid', { webhook_id: [params.id] });
		const check = await sb.crc(w, { reason: 'invalidate', nonce: true });
		if (check.ok)
			return {
				status: 409,
				body: {
					error: 'the webhook answered its CRC check; the service does not invalidate it',
					check,
					webhook: w,
				},
			};
		w.valid = false;
		return { body: { check, webhook: w } };
	});
	sb.route('POST', '/_sandbox/replay', C, ({ body }) => {
		const b = body || {};
		const hooks = [...sb.db.webhooks.values()];
		const w = b.webhook_id
			? sb.db.webhooks.get(String(b.webhook_id))
			: hooks.length === 1
				? hooks[0]
				: undefined;
		if (!w)
			throw invalidRequest(
				'WebhookIdInvalid: name the webhook_id (there are ' + hooks.length + ' webhooks)',
				{},
			);
		const from = b.from_date
			? sb.parseYmdhm(String(b.from_date))
			: new Date(Date.now() - 24 * 3600 * 1000 + 60000);
		const to = b.to_date
			? new Date(sb.parseYmdhm(String(b.to_date)).getTime() + 60000)
			: new Date(Date.now() + 60000);
		const job = sb.startReplay(w, from, to, { delayMs: Number(b.delayMs) || 100 });
		return { body: { data: { job_id: job.job_id, created_at: job.created_at } } };
	});
	// A sink for workflows under test: each POST is one run of the workflow that called it.
	sb.sinks = sb.sinks || {};
	sb.route('POST', '/_sandbox/sink/:name', C, ({ params, body }) => {
		(sb.sinks[params.name] = sb.sinks[params.name] || []).push({
			at: new Date().toISOString(),
			body,
		});
		return { body: { ok: true } };
	});
	sb.route('GET', '/_sandbox/sink/:name', C, ({ params }) => ({
		body: { items: sb.sinks[params.name] || [] },
	}));
	sb.route('DELETE', '/_sandbox/sink/:name', C, ({ params }) => {
		delete sb.sinks[params.name];
		return { body: { ok: true } };
	});
	sb.route('GET', '/_sandbox/state', C, () => {
		const d = sb.db;
		return {
			body: {
				webhooks: plain(d.webhooks),
				subscriptions: plain(d.subscriptions),
				events: d.events.map((e) => ({
					event_uuid: e.event_uuid,
					event_type: e.event_type,
					webhook_id: e.webhook_id,
					created_at: e.created_at,
				})),
				deliveries: d.deliveries,
				crcChecks: d.crcChecks,
				replayJobs: d.replayJobs,
				posts: plain(d.tweets),
				media: plain(d.media),
				streamRules: plain(d.streamRules),
				notes: d.notes,
				dmEvents: d.dmEvents,
				ads: Object.fromEntries(
					Object.entries(d.ads).map(([k, v]) => [
						k,
						k === 'products'
							? Object.fromEntries([...v.entries()].map(([c, m]) => [c, [...m.values()]]))
							: plain(v),
					]),
				),
			},
		};
	});
}

module.exports = { install };
