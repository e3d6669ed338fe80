/**
 * Switches the browser tests flip before the app loads (`page.addInitScript`), to prove each delivery
 * path on its own: `polling: false` leaves only the realtime push, `realtime: false` only the polling.
 */
type TestSwitches = { polling?: boolean; realtime?: boolean };

declare global {
  interface Window {
    __GUILDHALL_TEST__?: TestSwitches;
  }
}

export function isPollingEnabled(): boolean {
  return window.__GUILDHALL_TEST__?.polling !== false;
}

export function isRealtimeEnabled(): boolean {
  return window.__GUILDHALL_TEST__?.realtime !== false;
}
