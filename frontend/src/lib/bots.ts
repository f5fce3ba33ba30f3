/** User agents of search engines and link-preview crawlers (spec §2: their errors are only logged). */
const BOT_PATTERN =
  /googlebot|google-inspectiontool|adsbot-google|mediapartners-google|bingbot|bingpreview|yandex|baiduspider|duckduckbot|slurp|applebot|petalbot|facebookexternalhit|facebot|twitterbot|linkedinbot|slackbot|discordbot|telegrambot|whatsapp|skypeuripreview|pinterest|embedly|redditbot|mastodon|quora link preview|vkshare|ahrefsbot|semrushbot/i;

/** True when the user agent belongs to a crawler or link-preview bot. */
export function isBot(userAgent: string = typeof navigator === 'undefined' ? '' : navigator.userAgent): boolean {
  return BOT_PATTERN.test(userAgent);
}
