// Entry point `@portico/sdk/events`: first-party event tracking that honours DNT and GPC.
export { trackEvent, type TrackEventParameters } from './track-event.ts'
export { browserTrackingAllowed, trackingAllowed, type PrivacySignals } from './privacy.ts'
