// React 18+ has useSyncExternalStore built in; the router still imports the shim package for
// older Reacts. The build points that import here (vite.config.ts), keeping the shim out of the
// first load.
export { useSyncExternalStore } from 'react'
