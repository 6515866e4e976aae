import { expect, test } from '@playwright/test'
import { createWalletClient, getAddress, http, publicActions } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { emitterAbi, emitterBytecode } from '@portico/test-kit/emitter'
import { anvilUrl } from './ports.ts'
import { emitterAddress } from './support/sync-module.mjs'

// The server syncs the Emitter contract's events into `Activity`; the Analytics page shows them
// live. Minting here makes a row appear there without a reload.

/** Anvil's tenth default account (public test key): the contract's deployer. */
const deployerKey = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6'

test('a mint shows up in Recent activity without a reload', async ({ page }) => {
  const wallet = createWalletClient({
    account: privateKeyToAccount(deployerKey),
    chain: foundry,
    transport: http(anvilUrl()),
  }).extend(publicActions)
  // The contract's address is fixed (the deployer's first transaction); a re-run finds it there.
  if (!(await wallet.getCode({ address: emitterAddress as `0x${string}` }))) {
    const hash = await wallet.deployContract({ abi: emitterAbi, bytecode: emitterBytecode })
    await wallet.waitForTransactionReceipt({ hash })
  }
  await page.goto('/analytics')
  const section = page.locator('#recent-activity')
  await expect(section.getByRole('heading', { name: 'Recent activity' })).toBeVisible()
  await expect(section.locator('.recent-activity-loading')).toHaveCount(0)
  const before = await section.locator('li').count()

  const to = getAddress('0x00000000000000000000000000000000000000e2')
  const value = 2n ** 70n + BigInt(Date.now())
  const hash = await wallet.writeContract({
    address: emitterAddress as `0x${string}`,
    abi: emitterAbi,
    functionName: 'mint',
    args: [to, value],
  })
  await wallet.waitForTransactionReceipt({ hash })
  const row = section.locator('li').first()
  await expect(row).toContainText(`value ${value}`, { timeout: 15_000 })
  await expect(row).toContainText('Transfer')
  await expect(row).toHaveAttribute('data-confirmed', 'true')
  await expect(section.locator('li')).toHaveCount(before + 1)
})
