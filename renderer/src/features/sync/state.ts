import type { ParseKeys } from 'i18next';
import type { Tone } from '../../components/StatusTag';
import type { SyncState } from '../../api/types';

export const stateLabel: Record<SyncState, ParseKeys> = { idle: 'branchSync.state.idle', running: 'branchSync.state.running', offline: 'branchSync.state.offline', error: 'branchSync.state.error' };
export const stateTone: Record<SyncState, Tone> = { idle: 'success', running: 'info', offline: 'warning', error: 'danger' };
