#version 330 core
in vec2 vUV;
in vec4 vColor;

uniform sampler2D uFont;   // R8 glyph atlas: 1 = ink

out vec4 fragColor;

void main() {
    float coverage = vUV.x < 0.0 ? 1.0 : texture(uFont, vUV).r;
    fragColor = vec4(vColor.rgb, vColor.a * coverage);
}
