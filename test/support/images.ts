/** Small images made in memory for requests. */
import sharp from 'sharp';

export const tinyJpeg = async (width = 64, height = 48, colour = { r: 200, g: 80, b: 40 }): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();

export const base64Jpeg = async (width?: number, height?: number) => (await tinyJpeg(width, height)).toString('base64');
