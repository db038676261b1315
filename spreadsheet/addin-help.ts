/** What both add-ins tell a person who has no working key: where keys come from. */
export const GET_A_KEY = 'Keys are issued by whoever runs your landed service (on its server: npm run keys -- create --label YOUR-NAME).';
