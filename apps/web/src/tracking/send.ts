import type { BackendClient } from '@portico/sdk/backend/client'
import { trackEvent } from '@portico/sdk/events/trackEvent'
import type { EventSender } from './tracker.ts'

// Loaded on the first idle moment after an event is queued, not with the first paint.

/** Sends events through the SDK's `trackEvent` (`{ subdomain, event, options }`, spec §7). */
export function createEventSender(client: BackendClient, subdomain: string): EventSender {
  return (event, options) => trackEvent(client, { event, options, subdomain })
}
