import { openClasses, openClassesNote, type OpenClassSources } from './open-classes.ts'
import type { ImportReport } from '../import/report.ts'

/**
 * Adds to `report` whether its class is open to signed-out writes once imported (imported rows
 * without an ACL are everyone's to write, and a class without permissions takes signed-out
 * creates on the mount), so that the team sees it where they read what was imported.
 */
export async function noteOpenClasses(
  sources: OpenClassSources,
  report: ImportReport,
): Promise<void> {
  if (report.className.startsWith('_') || report.file.startsWith('_Join:')) return
  const open = await openClasses(sources, [report.className])
  report.openClasses = open
  const note = openClassesNote(open, [report.className])
  if (note) report.notes.push(note)
}
