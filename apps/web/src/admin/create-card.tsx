import type { ReactNode } from 'react'

/**
 * A form of the data browser that makes something new: a button that opens it, then a card with
 * its heading, its fields, what is wrong with them, and submit and cancel.
 */
export function CreateCard({
  id,
  opener,
  heading,
  submit,
  open,
  busy,
  problem,
  onOpen,
  onSubmit,
  onCancel,
  children,
}: {
  /** Names its heading and problem (`${id}-heading`, `${id}-problem`). */
  id: string
  opener: string
  heading: ReactNode
  submit: string
  open: boolean
  busy: boolean
  problem: string | undefined
  onOpen: () => void
  onSubmit: () => void
  onCancel: () => void
  children: ReactNode
}) {
  if (!open)
    return (
      <button type="button" className="button-secondary" onClick={onOpen}>
        {opener}
      </button>
    )
  return (
    <section className="card create-form" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{heading}</h3>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          onSubmit()
        }}
      >
        {children}
        {problem ? (
          <p id={`${id}-problem`} role="alert" className="console-problem">
            {problem}
          </p>
        ) : null}
        <p className="console-toolbar">
          <button type="submit" disabled={busy}>
            {submit}
          </button>
          <button type="button" className="button-secondary" onClick={onCancel}>
            Cancel
          </button>
        </p>
      </form>
    </section>
  )
}
