import { useState } from 'react'

/**
 * Copies `text` to the clipboard on `copy()`; `copied` says how it went. A refused clipboard
 * (permissions, an insecure origin) is `'failed'`, for the caller to say so: the text can still
 * be selected.
 */
export function useCopy(text: string) {
  const [copied, setCopied] = useState<'yes' | 'failed'>()
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setCopied('yes')
    } catch {
      setCopied('failed')
    }
  }
  return { copied, copy }
}
