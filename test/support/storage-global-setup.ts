export { setup as default } from './storage-global';
