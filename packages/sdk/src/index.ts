// Public entry point of @portico/sdk. Each module is also importable on its own
// (`@portico/sdk/rpc/connectNode`), which keeps bundles small.
export { BaseError, type BaseErrorParameters } from './errors/base.ts'
export { sdkVersion } from './version.ts'
