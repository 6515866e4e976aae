import { liveServerMessageSchema, type LiveServerMessage } from '@portico/sdk/wire'
import { Ajv } from 'ajv'
import { expect, it } from 'vitest'
import WebSocket from 'ws'
import { signedIn, testApp } from '../../test/helpers.ts'

// `/api/live` against its schemas (@portico/sdk/wire): what a client sends outside them is
// refused with an error and the socket keeps working; what the server sends matches them.

const serverMessage = new Ajv({ allowUnionTypes: true, validateFormats: false }).compile(
  liveServerMessageSchema,
)

it('refuses messages outside the protocol, keeps the socket, and answers only in its shapes', async () => {
  const { app } = await testApp('pglite')
  const origin = await app.listen({ host: '127.0.0.1', port: 0 })
  const { user, token, headers } = await signedIn(app)
  const socket = new WebSocket(`${origin.replace('http', 'ws')}/api/live`)
  const messages: LiveServerMessage[] = []
  socket.on('message', (data) => messages.push(JSON.parse(String(data)) as LiveServerMessage))
  await new Promise((resolve) => socket.once('open', resolve))
  const send = (message: unknown) =>
    socket.send(typeof message === 'string' ? message : JSON.stringify(message))

  send('connect please')
  send({ op: 'connect', token: 42 })
  send({ op: 'connect', token })
  send({ op: 'subscribe', className: 'Note' })
  send({ op: 'subscribe', requestId: 1, className: 'Note', where: [] })
  send({ op: 'subscribe', requestId: 1, className: 'Note' })
  send({ op: 'publish', requestId: 1 })
  const expected: LiveServerMessage[] = [
    { op: 'error', code: 'invalid_message', message: 'Messages are JSON objects with an "op".' },
    {
      op: 'error',
      code: 'invalid_message',
      message: 'Invalid "connect" message: "token" must be string.',
    },
    { op: 'connected', userId: user.id },
    { op: 'error', code: 'invalid_message', message: 'A subscription needs a "requestId".' },
    {
      op: 'error',
      requestId: 1,
      code: 'invalid_query',
      message: '"where" must be a JSON object of field constraints.',
    },
    { op: 'subscribed', requestId: 1 },
    {
      op: 'error',
      code: 'invalid_message',
      message: 'Unknown "op": use connect, subscribe or unsubscribe.',
    },
  ]
  await expect.poll(() => messages).toEqual(expected)

  const created = await app.inject({
    method: 'POST',
    url: '/api/classes/Note',
    headers,
    payload: { data: { text: 'hi' } },
  })
  expect(created.statusCode).toBe(201)
  await expect
    .poll(() => messages[expected.length])
    .toMatchObject({ op: 'create', requestId: 1, object: { data: { text: 'hi' } } })
  send({ op: 'unsubscribe', requestId: 1 })
  await expect.poll(() => messages.at(-1)).toEqual({ op: 'unsubscribed', requestId: 1 })

  for (const message of messages) expect(serverMessage(message), JSON.stringify(message)).toBe(true)
  expect(socket.readyState).toBe(WebSocket.OPEN)
  socket.close()
})
