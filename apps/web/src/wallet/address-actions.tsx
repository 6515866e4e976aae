import { explorerLink } from './explorers.ts'
import { useCopy } from './use-copy.ts'

/** Copy the address, and look it up on the chain's block explorer when it has one. */
export function AddressActions({
  address,
  chainId,
}: {
  address: string
  chainId: number | undefined
}) {
  const { copied, copy } = useCopy(address)
  const explorer = explorerLink(chainId, address)
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
