// What the app may use of the admin feature; it imports it from here, never from the files behind
// it (biome.json's layer rule). Only the admin's own entry (web/src/admin-main.tsx, through
// app/admin-routes.tsx) imports it: nothing of the admin is in the shop's bundle (ADR 0033).

export { AdminPage } from './admin-page';
