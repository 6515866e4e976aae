import type { WalletApp } from './wallet-apps.ts'

// Small drawings of the wallet apps' marks, bundled with the dialog (no request to the vendors,
// nothing to configure). Decorative: the button's text names the wallet.

const size = { width: 28, height: 28, viewBox: '0 0 28 28', 'aria-hidden': true } as const

export function WalletAppIcon({ id }: { id: WalletApp['id'] }) {
  switch (id) {
    case 'metamask':
      return (
        <svg {...size} className="wallet-icon">
          <rect width="28" height="28" rx="6" fill="#fff4ea" />
          <path d="M5 6l8 5.5L11.5 8z M23 6l-8 5.5L16.5 8z" fill="#e2761b" />
          <path d="M5 6l1.8 8.2L6 19l3.6 3.5h8.8L22 19l-.8-4.8L23 6l-8 5.5h-2z" fill="#f6851b" />
          <path d="M10 16.5l2 .8-.6 1.7zm8 0l-2 .8.6 1.7z" fill="#233447" />
          <path d="M11.4 21l2.6 1.5 2.6-1.5-.4-1.6h-4.4z" fill="#c0ad9e" />
        </svg>
      )
    case 'coinbase':
      return (
        <svg {...size} className="wallet-icon">
          <rect width="28" height="28" rx="6" fill="#0052ff" />
          <circle cx="14" cy="14" r="8.5" fill="#ffffff" />
          <rect x="11" y="11" width="6" height="6" rx="1" fill="#0052ff" />
        </svg>
      )
    case 'trust':
      return (
        <svg {...size} className="wallet-icon">
          <rect width="28" height="28" rx="6" fill="#0500ff" />
          <path
            d="M14 5.5l7 2.6c0 7.3-2.6 11.6-7 14.4-4.4-2.8-7-7.1-7-14.4z"
            fill="none"
            stroke="#ffffff"
            strokeWidth="2"
            strokeLinejoin="round"
          />
          <path d="M14 5.5v17c4.4-2.8 7-7.1 7-14.4z" fill="#48ff91" />
        </svg>
      )
  }
}
