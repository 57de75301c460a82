import type { DesktopBridge } from '../api/types';

/** The preload's bridge when running inside the desktop app; undefined in a plain browser. */
export function desktopBridge(): DesktopBridge | undefined {
  return (window as Window & { trainbench?: DesktopBridge }).trainbench;
}
