/** A refusal shown beside the control that met it; nothing when there is none. */
export function InlineProblem({ text }: { text: string | undefined }) {
  return text ? (
    <span role="alert" className="console-problem">
      {text}
    </span>
  ) : null
}
