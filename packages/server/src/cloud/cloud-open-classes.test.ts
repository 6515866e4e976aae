import { createRequire } from 'node:module'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAddress } from 'viem'
import { ANY_OWNER } from '../objects/access.ts'
import { databaseKinds } from '../../test/helpers.ts'
import { keepOnLoopback } from '../../test/compat.ts'
import { startMoralisCloud, watchTransfers, type MoralisCloud } from '../../test/moralis-cloud.ts'

// A Moralis v1 app whose cloud code writes as Moralis ran it, on Parse's defaults: the
// `afterSave` of a synced class (registered by the real moralis-v1 client's
// `watchContractEvent` with the master key) creates, finds and destroys objects of a class
// without permissions, with no session and no master key (test/fixtures/cloud-open-classes).
// The contract is played on anvil; a signed-out client reads and changes what the trigger made.

const require = createRequire(import.meta.url)
keepOnLoopback('moralis-v1/lib/node/RESTController.js')
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the v1 SDK ships loose types
const Moralis = require('moralis-v1/node') as any
const MASTER_KEY = 'moralis-open-classes-master-key-0123'
const CLOUD = path.resolve(import.meta.dirname, '../../test/fixtures/cloud-open-classes')
const alice = '0x00000000000000000000000000000000000000a7'
const bob = '0x00000000000000000000000000000000000000b7'

describe.each(databaseKinds())('cloud code writing as a visitor on %s', (kind) => {
  let app: MoralisCloud
  beforeAll(async () => {
    app = await startMoralisCloud(kind, Moralis, { cloudCode: CLOUD, masterKey: MASTER_KEY })
  })
  afterAll(() => app?.stop())

  /** The `Holder` rows as a signed-out client finds them: address → transaction. */
  const holders = async () => {
    const rows = await new Moralis.Query('Holder').find()
    return Object.fromEntries(
      rows.map((row: { get(k: string): string }) => [row.get('address'), row.get('tx')]),
    )
  }

  it("keeps a class without permissions from a synced class's afterSave, with no session", async () => {
    const { emitter, server } = app
    expect(await watchTransfers(Moralis, emitter.address)).toEqual({ success: true })
    const first = await emitter.send('mint', [getAddress(alice), 5n])
    await expect.poll(holders, { timeout: 30_000 }).toEqual({ [alice]: first.transactionHash })
    // The next transfer to alice: the trigger finds the old row and destroys it.
    const second = await emitter.send('mint', [getAddress(alice), 1n])
    const third = await emitter.send('mint', [getAddress(bob), 2n])
    await expect
      .poll(holders, { timeout: 30_000 })
      .toEqual({ [alice]: second.transactionHash, [bob]: third.transactionHash })

    // Made by a visitor without an ACL: Parse's public one.
    const { results } = await server.app.services.objects.query(ANY_OWNER, 'Holder', {
      where: undefined,
      limit: 10,
      skip: 0,
    })
    expect(results.map((row) => row.acl)).toEqual([
      { '*': { read: true, write: true } },
      { '*': { read: true, write: true } },
    ])
    // A signed-out client changes one as the trigger could.
    expect(Moralis.User.current()).toBeNull()
    const row = await new Moralis.Query('Holder').equalTo('address', bob).first()
    row.set('note', 'seen')
    await row.save()
    const again = await new Moralis.Query('Holder').get(row.id, { useMasterKey: true })
    expect(again.get('note')).toBe('seen')
  })
})
