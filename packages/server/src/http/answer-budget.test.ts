import { describe, expect, it } from 'vitest'
import { answerBudget, withSharedAnswerBudget } from './answer-budget.ts'

const tick = () => new Promise((resolve) => setTimeout(resolve, 1))

describe('the shared answer budget', () => {
  it('is shared by the work of one batch, across awaits, and gone outside it', async () => {
    expect(answerBudget(1_000)).toBe(1_000)
    await withSharedAnswerBudget(100, async (take) => {
      expect(answerBudget(1_000)).toBe(100)
      expect(take(60)).toBe(true)
      await tick()
      expect(answerBudget(1_000)).toBe(40)
      expect(take(50)).toBe(false) // does not fit: not spent
      expect(answerBudget(1_000)).toBe(40)
      expect(take(50, true)).toBe(true) // kept anyway
      expect(answerBudget(1_000)).toBe(0)
    })
    expect(answerBudget(1_000)).toBe(1_000)
  })

  it('keeps each of two batches in flight at once to its own, and works again after both', async () => {
    const batch = (max: number, spend: number) =>
      withSharedAnswerBudget(max, async (take) => {
        await tick()
        take(spend)
        await tick()
        return answerBudget(Infinity)
      })
    // The shorter one ends first: the other keeps its budget after it.
    const [first, second] = await Promise.all([
      batch(100, 10),
      (async () => {
        await tick()
        return batch(500, 20)
      })(),
    ])
    expect(first).toBe(90)
    expect(second).toBe(480)
    expect(answerBudget(7)).toBe(7)
    expect(await batch(50, 5)).toBe(45)
  })

  it('ends its batch when the work throws, and the next one still works', async () => {
    await expect(
      withSharedAnswerBudget(10, async () => {
        await tick()
        throw new Error('broken')
      }),
    ).rejects.toThrow('broken')
    expect(answerBudget(3)).toBe(3)
    expect(await withSharedAnswerBudget(10, async (take) => (take(4), answerBudget(99)))).toBe(6)
  })
})
