// Entry point `@portico/sdk/events`: first-party event tracking that honours DNT and GPC, and
// the admins' event statistics.
export { trackEvent, type TrackEventParameters } from './track-event.ts'
export { browserTrackingAllowed, trackingAllowed, type PrivacySignals } from './privacy.ts'
export { checkEventStats, getEventStats } from './event-stats.ts'
export type { EventStats, EventStatsQuery } from '../wire/types.ts'
