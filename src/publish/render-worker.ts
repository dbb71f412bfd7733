// A render worker of the regeneration (started by render-threads.ts): opens its own read snapshot, says which
// events it shows, then renders the organizations it is handed until told to stop. The files it renders go to the
// calling thread, which writes them (render-threads.ts says why).
import { on } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import { sql } from 'kysely';
import { listEventHeads } from '../competitions/queries.js';
import { openDb } from '../db/connect.js';
import { renderOrganization } from './render-organization.js';
import { FILES_PER_MESSAGE, headsFingerprint, type FromWorker, type ToWorker, type WorkerSetup } from './render-threads.js';
import { ArtifactStore, type PreparedArtifact } from './store.js';

const port = parentPort!;
const setup = workerData as WorkerSetup;
const post = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

// The connection alone (connect.ts): the calling thread migrated the schema already.
const { db } = openDb(setup.databasePath);
// The files go to the calling thread a few at a time (FILES_PER_MESSAGE), all of an organization's before its "done".
let batch: PreparedArtifact[] = [];
const send = () => {
  if (batch.length === 0) return;
  post({ type: 'files', artifacts: batch }, batch.map((a) => a.bytes));
  batch = [];
};
const store = new ArtifactStore(setup.artifactsDir, (artifact) => {
  batch.push(artifact);
  if (batch.length >= FILES_PER_MESSAGE) send();
});
try {
  await db.transaction().execute(async (trx) => {
    await sql`SELECT 1`.execute(trx);
    post({ type: 'open', heads: headsFingerprint(await listEventHeads(trx)) });
    for await (const [message] of on(port, 'message') as AsyncIterable<[ToWorker]>) {
      if (message.type === 'stop') break;
      const result = await renderOrganization(trx, message.work, store, { ...setup.settings, previous: message.previous });
      send();
      post({ type: 'done', result });
    }
  });
  post({ type: 'closed', stats: store.stats });
} finally {
  await db.destroy();
}
