// Group commit: a write waits for the end of the event loop's current turn, so that everything
// added in the same turn (the responses read from the sockets together) goes in one batch, and
// writes that come while a batch is being written wait for the next batch, which takes everything
// that came meanwhile. Alone, a write goes after that turn (well under a millisecond); under load
// one statement carries many. On PGlite a statement runs on this thread, start to finish, before
// the next socket is read: without waiting for the turn's end every write found the previous one
// done and went alone (one statement per delivery). A batch the database refuses is retried item
// by item, so one item it will not take does not undo the others.

export class GroupCommit<T> {
  private queue: { item: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private writing = false;
  private scheduled = false;

  constructor(
    private readonly write: (batch: T[]) => Promise<void>,
    private readonly maxBatch: number,
  ) {}

  /** Resolves when `item` is written (in whichever batch), rejects when its own write failed. */
  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.writing || this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        void this.drain();
      });
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          await this.write(batch.map((b) => b.item));
          for (const b of batch) b.resolve();
        } catch (error) {
          if (batch.length === 1) batch[0]?.reject(error);
          else for (const b of batch) await this.write([b.item]).then(b.resolve, b.reject);
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
