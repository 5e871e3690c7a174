// PGlite with the pgvector extension, served over the PostgreSQL wire protocol on loopback.
// Usage: node server.mjs [--port N (0: a free port)] [--max-connections N] [--db DIR (default: in memory)]
//                        [--exit-on-stdin-close]
// Prints "pglite-server listening on 127.0.0.1:<port>" once clients may connect.
import { parseArgs } from 'node:util'
import { PGlite } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'max-connections': { type: 'string', default: '32' },
    db: { type: 'string', default: 'memory://' },
    'exit-on-stdin-close': { type: 'boolean', default: false },
  },
})

const db = await PGlite.create(values.db, { extensions: { vector } })
// PGlite is one PostgreSQL session; the socket server multiplexes client connections onto it,
// keeping a connection's transaction to itself (other connections wait until it ends).
const server = new PGLiteSocketServer({
  db,
  host: '127.0.0.1',
  port: parseInt(values.port, 10),
  maxConnections: parseInt(values['max-connections'], 10),
})
server.addEventListener('listening', (e) => {
  console.log(`pglite-server listening on ${e.detail.host}:${e.detail.port}`)
})
server.addEventListener('error', (e) => console.error('pglite-server: socket error', e.detail))
await server.start()

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  await server.stop()
  await db.close()
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
if (values['exit-on-stdin-close']) {
  // the test JVM holds our stdin; when it goes away (even killed), so do we
  process.stdin.on('end', stop)
  process.stdin.on('close', stop)
  process.stdin.resume()
}
