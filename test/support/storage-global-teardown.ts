export { teardown as default } from './storage-global';
