import axios from 'axios';
import { getToken } from './auth-store';

const base = new URL(process.env.API_BASE_URL);
export const http = axios.create({ baseURL: base.href, timeout: 10_000 });

http.interceptors.request.use((config) => {
  const target = new URL(config.url, config.baseURL);
  if (target.origin === base.origin) {
    config.headers.Authorization = `Bearer ${getToken()}`;
  }
  return config;
});
