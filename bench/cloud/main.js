/* global Parse */
// bench:server's cloud code: an empty beforeSave on one class, to measure what a trigger costs
// a create (the other classes have none).
Parse.Cloud.beforeSave('BenchTriggered', () => {})
