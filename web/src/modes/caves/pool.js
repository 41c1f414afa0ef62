// A small pool of chunk workers: jobs go to the least busy worker, each
// answer resolves its promise, and `cancel` aborts a job wherever it is.

/** Workers to start: one per core, at most four, at least two. */
export function poolSize() {
  return Math.max(2, Math.min(4, navigator.hardwareConcurrency || 2));
}

export class WorkerPool {
  constructor(size = poolSize()) {
    this.workers = [];
    this.pending = new Map();
    this.nextId = 1;
    for (let i = 0; i < size; i++) {
      const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
      const slot = { worker, busy: 0 };
      worker.onmessage = (e) => this.answer(slot, e.data);
      worker.onerror = (e) => console.warn('chunk worker error', e.message);
      this.workers.push(slot);
    }
  }

  /** Loads `job` (`{ url }` or `{ generate }`) as `kind` in a worker; resolves with the decoded chunk. */
  load(job, kind, extra = {}) {
    const id = this.nextId++;
    const slot = this.workers.reduce((a, b) => (b.busy < a.busy ? b : a));
    slot.busy++;
    const promise = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, slot });
    });
    slot.worker.postMessage({ type: 'load', id, kind, ...job, ...extra });
    return { id, promise };
  }

  cancel(id) {
    const job = this.pending.get(id);
    if (job) job.slot.worker.postMessage({ type: 'cancel', id });
  }

  answer(slot, data) {
    const job = this.pending.get(data.id);
    if (!job) return;
    this.pending.delete(data.id);
    slot.busy--;
    if (data.ok) job.resolve(data);
    else job.reject(Object.assign(new Error(data.error), { aborted: data.aborted }));
  }

  get busy() {
    return this.pending.size;
  }

  dispose() {
    for (const { worker } of this.workers) worker.terminate();
    for (const job of this.pending.values()) job.reject(Object.assign(new Error('closed'), { aborted: true }));
    this.pending.clear();
  }
}
