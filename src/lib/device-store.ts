// One localStorage entry that components follow (useSyncExternalStore): changes made in this tab
// (notify) and in other tabs (the storage event). A storage that is blocked reads as empty.

export interface DeviceStore {
  readText: () => string | null;
  /** Writes the entry; false when the device refused (full, or storage blocked). */
  writeText: (text: string) => boolean;
  notify: () => void;
  subscribe: (listener: () => void) => () => void;
}

export function deviceStore(key: string): DeviceStore {
  const listeners = new Set<() => void>();
  return {
    readText() {
      try {
        return window.localStorage.getItem(key);
      } catch {
        return null;
      }
    },
    writeText(text) {
      try {
        window.localStorage.setItem(key, text);
        return true;
      } catch {
        return false;
      }
    },
    notify() {
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      const onStorage = (event: StorageEvent) => {
        if (event.key === key || event.key === null) listener();
      };
      window.addEventListener('storage', onStorage);
      return () => {
        listeners.delete(listener);
        window.removeEventListener('storage', onStorage);
      };
    },
  };
}
