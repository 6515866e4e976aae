import { Link } from 'wouter'
import { homeContent } from '../site/home-content.ts'
import { porticoConfigFromEnv } from '../wallet/config.ts'

const config = porticoConfigFromEnv(import.meta.env, '')
const content = homeContent({
  phoneWallet: config.walletConnectProjectId !== undefined,
  email: config.magicApiKey !== undefined,
  social: config.web3AuthClientId !== undefined,
})

/**
 * The landing page: its words come from site/home-content.ts. Pre-rendered into index.html at
 * build time and hydrated. The hero is the first screen, so it is never hidden for the scroll
 * reveal: it paints with the HTML, before any script runs.
 */
export default function Home() {
  return (
    <>
      <section className="hero" id="hero">
        <p className="eyebrow">{content.eyebrow}</p>
        <h1>{content.heading}</h1>
        <p className="lead">{content.lead}</p>
        <p className="actions">
          <Link href={content.primary.href} className="button">
            {content.primary.label}
          </Link>
          <a href={content.secondary.href} className="button button-secondary">
            {content.secondary.label}
          </a>
        </p>
      </section>
      <section id="how-it-works" aria-labelledby="how-it-works-heading">
        <h2 id="how-it-works-heading">{content.stepsHeading}</h2>
        <ol className="feature-list">
          {content.steps.map((step) => (
            <li key={step.id} id={step.id} className="feature" data-reveal>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </section>
      <section className="closing" id="get-started" data-reveal>
        <h2>{content.closing.heading}</h2>
        <p>{content.closing.text}</p>
        <p className="actions">
          <Link href={content.primary.href} className="button">
            {content.primary.label}
          </Link>
        </p>
      </section>
    </>
  )
}
