import { useEffect, useState } from 'react'

/**
 * The WalletConnect pairing URI as a QR code, drawn here with a small QR library (the vendor's
 * modal is hundreds of KB). The library loads with the first QR shown. On a phone, a link opens
 * the wallet app there instead.
 */
export function WalletQr({ uri, touch = false }: { uri: string; touch?: boolean }) {
  const [svg, setSvg] = useState<string | null>(null)
  useEffect(() => {
    let active = true
    void import('qrcode-generator').then(({ default: qrcode }) => {
      const qr = qrcode(0, 'M')
      qr.addData(uri)
      qr.make()
      if (active) setSvg(qr.createSvgTag({ cellSize: 4, margin: 2, scalable: true }))
    })
    return () => {
      active = false
    }
  }, [uri])
  return (
    <figure className="wallet-qr">
      {touch && (
        // On the phone itself a QR code cannot be scanned: the pairing link opens the wallet app
        // registered for WalletConnect links.
        <p>
          <a className="button" href={uri}>
            Open your wallet app
          </a>
        </p>
      )}
      {svg ? (
        <div
          className="wallet-qr-code"
          role="img"
          aria-label="WalletConnect pairing QR code"
          dangerouslySetInnerHTML={{ __html: svg }}
        />
      ) : (
        <div className="wallet-qr-code" aria-hidden="true" />
      )}
      <figcaption>
        Scan with a WalletConnect wallet on your phone, or{' '}
        <button
          type="button"
          className="link-button"
          onClick={() => void navigator.clipboard?.writeText(uri)}
        >
          copy the link
        </button>
        .
      </figcaption>
    </figure>
  )
}
