import { useEffect, useState } from 'react'
import { usePortico } from '@portico/react'
import type { BackendClient } from '@portico/sdk/backend'

/**
 * The app's one backend client (the Portico client's, whose code loads on first use); undefined
 * until it has loaded.
 */
export function useBackendClient(): BackendClient | undefined {
  const portico = usePortico()
  const [client, setClient] = useState<BackendClient>()
  useEffect(() => {
    let live = true
    portico.backend().then(
      (loaded) => live && setClient(loaded),
      (error: unknown) => console.error('Portico: the backend client could not be loaded', error),
    )
    return () => {
      live = false
    }
  }, [portico])
  return client
}
