import { createRoot } from 'react-dom/client'
import {
  MoralisProvider,
  useApiContract,
  useERC20Balances,
  useMoralis,
  useMoralisWeb3Api,
  useMoralisWeb3ApiCall,
  useNFTBalances,
  useNativeBalance,
} from 'react-moralis'

// A Moralis v1 React app as such apps were written: react-moralis' provider and data hooks over
// the moralis-v1 client. react-moralis.spec.ts bundles it and gives it its settings in the page.

interface Settings {
  serverUrl: string
  appId: string
  /** An address looked up before anyone signs in. */
  holder: string
  token: string
}

const settings = JSON.parse(document.getElementById('settings')!.textContent!) as Settings

const balanceOfAbi = [
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'owner', type: 'address' }],
    outputs: [{ name: '', type: 'uint256' }],
  },
]

interface Token {
  symbol: string
  balance: string
}
interface Nft {
  token_id: string
}

/**
 * What an address holds. Without `params` the hooks read the signed-in account's; with them the
 * given address's. The chain is the wallet's once it is connected, before that v1's default (eth,
 * which this server points at the local chain).
 */
function Holdings({ name, params }: { name: string; params?: { address: string } }) {
  // A looked-up address is read at once; the account's once it is known (the hooks' default).
  const options = params ? { autoFetch: true } : undefined
  const native = useNativeBalance(params, options)
  const tokens = useERC20Balances(params, options)
  const nfts = useNFTBalances(params, options)
  const tokenRows = (tokens.data ?? []) as Token[]
  const nftData = nfts.data as { status?: string; result?: Nft[] } | null
  const refresh = () => {
    void native.getBalances()
    void tokens.fetchERC20Balances()
    void nfts.getNFTBalances()
  }
  return (
    <section aria-label={name}>
      <h2>{name}</h2>
      <p data-testid="native">{native.data.balance ?? ''}</p>
      <ul data-testid="tokens">
        {tokenRows.map((row) => (
          <li key={row.symbol}>{`${row.symbol} ${row.balance}`}</li>
        ))}
      </ul>
      <p data-testid="nft-status">{nftData?.status ?? ''}</p>
      <ul data-testid="nfts">
        {(nftData?.result ?? []).map((nft) => (
          <li key={nft.token_id}>{nft.token_id}</li>
        ))}
      </ul>
      <p data-testid="errors">
        {[native.error, tokens.error, nfts.error]
          .filter(Boolean)
          .map((error) => (error as Error).message)
          .join(' | ')}
      </p>
      <button onClick={refresh}>Refresh</button>
    </section>
  )
}

/** The generic Web3 API hooks: a call by hand, a contract's view function, a malformed call. */
function Reads() {
  const { token } = useMoralisWeb3Api()
  const metadata = useMoralisWeb3ApiCall(
    token.getTokenMetadata,
    { addresses: [settings.token] },
    { autoFetch: true },
  )
  const balanceOf = useApiContract(
    {
      address: settings.token,
      functionName: 'balanceOf',
      abi: balanceOfAbi,
      params: { owner: settings.holder },
    },
    { autoFetch: true },
  )
  const malformed = useMoralisWeb3ApiCall(
    token.getTokenMetadata,
    { addresses: ['0x1234'] },
    { autoFetch: true },
  )
  const rows = (metadata.data ?? []) as { name: string; symbol: string; decimals: string }[]
  return (
    <section aria-label="Reads">
      <p data-testid="metadata">
        {rows.map((row) => `${row.name} ${row.symbol} ${row.decimals}`).join(', ')}
      </p>
      <p data-testid="balance-of">{balanceOf.data === null ? '' : String(balanceOf.data)}</p>
      <p data-testid="malformed">
        {malformed.error ? `error: ${malformed.error.message}` : malformed.data ? 'answered' : ''}
      </p>
    </section>
  )
}

function App() {
  const { isInitialized, isAuthenticated, account, authenticate } = useMoralis()
  if (!isInitialized) return <p>starting</p>
  return (
    <main>
      <Holdings name="Looked up" params={{ address: settings.holder }} />
      <Reads />
      {isAuthenticated ? (
        <>
          <p data-testid="account">{account}</p>
          <Holdings name="Mine" />
        </>
      ) : (
        <button onClick={() => void authenticate({ signingMessage: 'Sign in to the React dApp' })}>
          Sign in
        </button>
      )}
    </main>
  )
}

createRoot(document.getElementById('root')!).render(
  <MoralisProvider serverUrl={settings.serverUrl} appId={settings.appId}>
    <App />
  </MoralisProvider>,
)
