/**
 * This SDK's version, sent to the server as the client version on every request. Kept in step
 * with package.json by a test (a JSON import would warn in Node 20 and tie dist/ to its layout).
 */
export const sdkVersion: string = '1.5.9'
