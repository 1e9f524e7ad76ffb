#version 330 core
// Blinn-Phong: ambient + Lambert diffuse + specular on the half vector (Blinn 1977),
// one directional light, computed in world space.
in vec3 vWorldPosition;
in vec3 vWorldNormal;

uniform vec3 uCameraPosition;
uniform vec3 uLightDirection;   // toward the light, unit length
uniform vec4 uBaseColor;
uniform float uShininess;       // specular exponent

out vec4 fragColor;

void main() {
    vec3 n = normalize(vWorldNormal);
    vec3 toEye = normalize(uCameraPosition - vWorldPosition);
    // Open surfaces (the spout, the lid's rim) are seen from both sides: light the side we see.
    if (dot(n, toEye) < 0.0) n = -n;
    vec3 l = normalize(uLightDirection);
    vec3 h = normalize(l + toEye);
    float diffuse = max(dot(n, l), 0.0);
    float specular = diffuse > 0.0 ? pow(max(dot(n, h), 0.0), uShininess) : 0.0;
    // A little light from below so the shadowed side keeps its shape.
    float fill = 0.25 * max(dot(n, -l), 0.0);
    vec3 color = uBaseColor.rgb * (0.18 + 0.82 * diffuse + fill) + vec3(0.55) * specular;
    fragColor = vec4(color, uBaseColor.a);
}
