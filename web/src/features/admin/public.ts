// What the app may use of the admin feature; it imports it from here, never from the files behind
// it (biome.json's layer rule). The route loads this module on demand: nothing of the admin is in
// the shop's first load.

export { AdminPage } from './admin-page';
