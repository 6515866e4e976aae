import { Console } from '../admin/console.tsx'
import { usePageParams } from '../shell/page-params.ts'

/** The admin console (`/admin` and `/admin/:section`): its code loads only here. */
export default function Admin() {
  const { section } = usePageParams<'/admin/:section'>()
  return <Console section={section ?? ''} />
}
