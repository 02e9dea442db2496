import { describe, expect, it } from 'vitest';
import { projectFromUrl } from './host-name';

describe('projectFromUrl', () => {
  it.each([
    ['https://WWW.Shop.Example.com:8443/x', 'shop.example.com'],
    ['http://example.com', 'example.com'],
    ['https://www.example.com/', 'example.com'],
    ['https://wwwexample.com/', 'wwwexample.com'],
    ['https://sub.www.example.com/', 'sub.www.example.com'],
    ['http://127.0.0.1:8080/', '127.0.0.1'],
    ['https://bücher.example/', 'xn--bcher-kva.example'],
  ])('takes the project of %s as %s', (url, project) => {
    expect(projectFromUrl(url)).toBe(project);
  });
});
