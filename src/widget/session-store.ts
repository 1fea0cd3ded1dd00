/**
 * sessionStorage with an in-memory fallback: reading or writing it throws in some private modes
 * and sandboxed frames, and the widget must keep working there (for the life of the page).
 */
export class SessionStore {
  private readonly memory = new Map<string, string>();

  constructor(private readonly storage: () => Storage) {}

  get(key: string): string | null {
    try {
      const value = this.storage().getItem(key);
      if (value !== null) return value;
    } catch {
      // unavailable: the in-memory copy is the truth for this page
    }
    return this.memory.get(key) ?? null;
  }

  set(key: string, value: string): void {
    this.memory.set(key, value);
    try {
      this.storage().setItem(key, value);
    } catch {
      // unavailable or full: kept in memory
    }
  }

  remove(key: string): void {
    this.memory.delete(key);
    try {
      this.storage().removeItem(key);
    } catch {
      // unavailable
    }
  }
}
