// Group commit: writes that come while a batch is being written wait for the next batch, which
// takes everything that came meanwhile. Alone, a write goes at once (no added latency); under load
// one statement carries many. A batch the database refuses is retried item by item, so one item
// it will not take does not undo the others.

export class GroupCommit<T> {
  private queue: { item: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private writing = false;

  constructor(
    private readonly write: (batch: T[]) => Promise<void>,
    private readonly maxBatch: number,
  ) {}

  /** Resolves when `item` is written (in whichever batch), rejects when its own write failed. */
  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
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
