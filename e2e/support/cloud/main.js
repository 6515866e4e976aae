/* global Parse */
// Cloud code for the browser tests (CLOUD_CODE in playwright.config.ts): a job the console
// starts, which logs a line and reports what it was given.
Parse.Cloud.job('greet', async (request) => {
  const who = request.params.who ?? 'nobody'
  request.log.info(`greeted ${who}`)
  return `said hello to ${who}`
})

Parse.Cloud.define('hello', () => 'hello')
