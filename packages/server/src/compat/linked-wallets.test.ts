import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { databaseKinds } from '../../test/helpers.ts'
import { keepOnLoopback, listeningApp, type ListeningApp } from '../../test/compat.ts'

// `Moralis.link` / `unlink` with the real moralis-v1 client (Node build): a second wallet,
// linked with its own signature, signs in as the same user.

const require = createRequire(import.meta.url)
keepOnLoopback('moralis-v1/lib/node/RESTController.js')
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the v1 SDK ships loose types
const Moralis = require('moralis-v1/node') as any

const wallet = () => {
  const privateKey = generatePrivateKey()
  const account = privateKeyToAccount(privateKey)
  return { privateKey, account, lower: account.address.toLowerCase() }
}
type Wallet = ReturnType<typeof wallet>

/** The network connector with a private key: it signs locally, no node is asked. */
const network = (w: Wallet) => ({
  provider: 'network',
  urls: { 1: 'http://127.0.0.1:9' },
  chainId: 1,
  privateKey: w.privateKey,
})

describe.each(databaseKinds())('linked wallets with moralis-v1 on %s', (kind) => {
  let server: ListeningApp
  const [first, second, other, stranger] = [wallet(), wallet(), wallet(), wallet()]
  let userId: string
  let otherId: string

  beforeAll(async () => {
    server = await listeningApp(kind)
    Moralis.User.enableUnsafeCurrentUser()
    await Moralis.start({ serverUrl: server.serverUrl, appId: 'portico' })
    otherId = (await Moralis.authenticate(network(other))).id
    await Moralis.User.logOut()
  })
  afterAll(async () => {
    await Moralis.User.logOut().catch(() => {})
    await Moralis.cleanup().catch(() => {})
  })

  it('links a second wallet; authenticating with it gives the same user', async () => {
    const user = await Moralis.authenticate(network(first))
    userId = user.id
    await Moralis.enableWeb3(network(second))
    const linked = await Moralis.link(second.lower)
    expect(linked.get('accounts')).toEqual([first.lower, second.lower])
    expect(linked.get('ethAddress')).toBe(second.lower)
    const stored = await new Moralis.Query('_User').get(userId)
    expect(stored.get('accounts')).toEqual([first.lower, second.lower])
    expect(stored.get('ethAddress')).toBe(second.lower)
    const ethAddress = await new Moralis.Query('_EthAddress').get(second.lower)
    expect(ethAddress.get('user').id).toBe(userId)

    await Moralis.User.logOut()
    const again = await Moralis.authenticate(network(second))
    expect(again.id).toBe(userId)
    expect(again.get('accounts')).toEqual([first.lower, second.lower])
    expect(await server.app.services.linkedAddresses.userOf(second.account.address)).toBe(userId)
  })

  it("refuses to link another user's wallet (208), and a forged signature (101)", async () => {
    await Moralis.enableWeb3(network(other))
    await expect(Moralis.link(other.lower)).rejects.toMatchObject({ code: 208 })
    // The client changed its authData in place: it would send it again with every save.
    Moralis.User.current().revert()
    await Moralis.User.current().fetch()
    expect(await server.app.services.linkedAddresses.userOf(other.account.address)).toBe(otherId)

    // A signature by `other` claiming the stranger's address.
    const user = Moralis.User.current()
    const { dateTime } = await Moralis.Cloud.run('getServerTime')
    const data = `Link my wallet\n\nId: portico:${dateTime}`
    const signature = await other.account.signMessage({ message: data })
    await expect(
      user.linkWith('moralisEth', { authData: { id: stranger.lower, signature, data } }),
    ).rejects.toMatchObject({ code: 101 })
    user.revert()
    await user.fetch()
    expect(
      await server.app.services.linkedAddresses.userOf(stranger.account.address),
    ).toBeUndefined()
  })

  it('accepts accounts and ethAddress only as linked wallets', async () => {
    const user = Moralis.User.current()
    user.addUnique('accounts', stranger.lower)
    await expect(user.save()).rejects.toMatchObject({ code: 119 })
    user.revert()
    user.set('ethAddress', other.lower)
    await expect(user.save()).rejects.toMatchObject({ code: 119 })
    user.revert()
    // A subset is put back to every linked wallet: accounts says what signs in.
    user.set('accounts', [first.lower])
    user.set('ethAddress', first.lower)
    await user.save()
    const stored = await new Moralis.Query('_User').get(userId)
    expect(stored.get('accounts')).toEqual([first.lower, second.lower])
    expect(stored.get('ethAddress')).toBe(first.lower)
  })

  it('unlinks a wallet: it then signs in as a new user; the last one stays', async () => {
    await Moralis.enableWeb3(network(second))
    const user = await Moralis.unlink(second.lower)
    expect(user.get('accounts')).toEqual([first.lower])
    const stored = await new Moralis.Query('_User').get(userId)
    expect(stored.get('accounts')).toEqual([first.lower])
    expect(stored.get('ethAddress')).toBe(first.lower)
    await expect(new Moralis.Query('_EthAddress').get(second.lower)).rejects.toMatchObject({
      code: 101,
    })
    await expect(Moralis.unlink(first.lower)).rejects.toMatchObject({ code: 119 })

    await Moralis.User.logOut()
    const alone = await Moralis.authenticate(network(second))
    expect(alone.id).not.toBe(userId)
    expect(alone.get('accounts')).toEqual([second.lower])
  })
})
