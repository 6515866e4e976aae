import { useState } from 'react'
import { explorerLink } from './explorers.ts'

/** Copy the address, and look it up on the chain's block explorer when it has one. */
export function AddressActions({
  address,
  chainId,
}: {
  address: string
  chainId: number | undefined
}) {
  const [copied, setCopied] = useState<'yes' | 'failed'>()
  const explorer = explorerLink(chainId, address)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(address)
      setCopied('yes')
    } catch {
      // Clipboard refused (permissions, insecure origin): say so; the address can be selected.
      setCopied('failed')
    }
  }
  return (
    <span className="address-actions">
      <button type="button" className="button-secondary small-button" onClick={() => void copy()}>
        {copied === 'yes' ? 'Copied' : 'Copy'}
      </button>
      {explorer && (
        <a href={explorer.href} target="_blank" rel="noopener noreferrer">
          View on {explorer.name}
        </a>
      )}
      <span role="status" className="muted small">
        {copied === 'failed' ? 'Could not copy: select the address instead.' : ''}
      </span>
    </span>
  )
}
